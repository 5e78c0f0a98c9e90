import { useEffect, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import type { analytics, url } from "../client.gen";
import { Alert } from "../components/Alert";
import { DailyChart } from "../components/DailyChart";
import { fillDays, lastDays } from "../days";
import { formatTime } from "../format";

export function StatsPage({ code }: { code: string }) {
  const [stats, setStats] = useState<url.StatsResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setStats(null);
    setError(null);
    client.url.stats(code).then(setStats, (err: unknown) => setError(errorMessage(err)));
  }, [code]);

  return (
    <>
      <h1 tabIndex={-1}>Link {code}</h1>
      {error && <Alert>{error}</Alert>}
      {!stats && !error && <p aria-live="polite">Loading…</p>}
      {stats && (
        <dl class="facts">
          <dt>Clicks</dt>
          <dd class="clicks">{stats.clicks}</dd>
          <dt>Goes to</dt>
          <dd>
            <a href={stats.originalUrl} rel="noreferrer">
              {stats.originalUrl}
            </a>
          </dd>
          <dt>Created</dt>
          <dd>
            <time dateTime={stats.createdAt}>{formatTime(stats.createdAt)}</time>
          </dd>
        </dl>
      )}
      <DailySection />
    </>
  );
}

/** Links created on the whole service per day: the analytics service keeps no per-link days. */
function DailySection() {
  const [days, setDays] = useState<analytics.DailyStat[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const range = lastDays(30);
    // The range is asked for explicitly so the chart's days and the query's are the same days.
    client.analytics.daily({ from: range[0], to: range.at(-1) }).then(
      (res) => setDays(fillDays(range, res.days)),
      (err: unknown) => setError(errorMessage(err)),
    );
  }, []);
  return (
    <section aria-labelledby="daily-heading">
      <h2 id="daily-heading">Links created per day, last 30 days</h2>
      {error && <Alert>{error}</Alert>}
      {days && <DailyChart days={days} />}
    </section>
  );
}
