import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import { ErrCode, isAPIError, type analytics, type link_rules } from "../client.gen";
import { analyticsQuery, hourAllowed, intervals, ranges, type AnalyticsQuery, type Interval, type RangeKey } from "../analytics/ranges";
import type { Dimension } from "../analytics/labels";
import { formatTime } from "../format";
import { href } from "../router";
import { Alert } from "./Alert";
import { DimensionBreakdown } from "./BreakdownTable";
import { ClickChart } from "./ClickChart";
import { RulesBreakdown } from "./RulesBreakdown";
import { ToggleGroup } from "./ToggleGroup";

const rangeLabels = Object.fromEntries(Object.entries(ranges).map(([key, r]) => [key, r.label])) as Record<RangeKey, string>;
const dimensions: Dimension[] = ["referrers", "countries", "browsers", "os", "devices"];

/** Why the clicks cannot be shown, for people: an owned link's clicks are its owner's alone. */
function failure(err: unknown): ComponentChildren {
  // Always through errorMessage: a token the server refused signs the reader out there.
  const message = errorMessage(err);
  if (isAPIError(err) && err.code === ErrCode.Unauthenticated) {
    return (
      <>
        Only the link's owner can see where its clicks come from. <a href={href.login}>Log in</a> if it is yours.
      </>
    );
  }
  if (isAPIError(err) && err.code === ErrCode.PermissionDenied) return "Only the link's owner can see where its clicks come from.";
  return message;
}

/** Analytics as every reader answers them (a link's, a tag's): the range, totals, series and breakdowns. */
export type AnalyticsAnswer = analytics.MyClicksResponse;

/**
 * Clicks over a chosen range: totals, a chart by hour or day, and where they came from; of
 * one link, or of what `load` reads (a tag's links), `source` naming it. "All time" starts at `createdAt`.
 * `rules`, a link's targeting rules (null when the reader may not read them), adds where they
 * sent its clicks; left out where the clicks are several links' (a tag's), whose rule ids mean
 * nothing without their link.
 */
export function ClickAnalytics({
  code,
  createdAt,
  load,
  source,
  rules,
}: {
  code?: string;
  createdAt: string;
  load?: (query: AnalyticsQuery) => Promise<AnalyticsAnswer>;
  source?: string;
  rules?: link_rules.RedirectRule[] | null;
}) {
  const [range, setRange] = useState<RangeKey>("30d");
  const [interval, setIntervalChoice] = useState<Interval>("day");
  const [answer, setAnswer] = useState<AnalyticsAnswer | null>(null);
  // The reader as last given: a new function each render must not read again.
  const reader = useRef(load);
  reader.current = load;
  const [error, setError] = useState<ComponentChildren>(null);
  const [loading, setLoading] = useState(true);
  // Answers can arrive out of order when the buttons are pressed quickly: only the last request's counts.
  const latest = useRef(0);

  useEffect(() => {
    const request = ++latest.current;
    setLoading(true);
    const query = analyticsQuery(range, interval, createdAt);
    (reader.current ? reader.current(query) : client.analytics.linkAnalytics(code!, query)).then(
      (res) => {
        if (request !== latest.current) return;
        setAnswer(res);
        setError(null);
        setLoading(false);
      },
      (err: unknown) => {
        if (request !== latest.current) return;
        setAnswer(null);
        setError(failure(err));
        setLoading(false);
      },
    );
  }, [code, source, createdAt, range, interval]);

  const chooseRange = (chosen: RangeKey) => {
    setRange(chosen);
    if (!hourAllowed(chosen)) setIntervalChoice("day");
  };

  return (
    <section class="analytics" aria-labelledby="clicks-heading" aria-busy={loading}>
      <h2 id="clicks-heading">Clicks</h2>
      <div class="analytics-controls">
        <ToggleGroup label="Range" value={range} options={rangeLabels} onChange={chooseRange} />
        <ToggleGroup label="Bars per" value={interval} options={intervals} disabled={hourAllowed(range) ? [] : ["hour"]} onChange={setIntervalChoice} />
      </div>
      {!hourAllowed(range) && <p class="hint">Bars per hour go back 31 days at most.</p>}
      {error && <Alert>{error}</Alert>}
      {!answer && !error && <p aria-live="polite">Loading…</p>}
      {answer && <Answer answer={answer} rules={rules} />}
    </section>
  );
}

function Answer({ answer, rules }: { answer: AnalyticsAnswer; rules: link_rules.RedirectRule[] | null | undefined }) {
  const { totals } = answer;
  return (
    <>
      <p class="meta">
        From <time dateTime={answer.from}>{formatTime(answer.from)}</time> to <time dateTime={answer.to}>{formatTime(answer.to)}</time>, {answer.interval === "day" ? "days" : "hours"} in{" "}
        {answer.tz}.
      </p>
      <dl class="totals">
        <div>
          <dt>All</dt>
          <dd>{totals.all}</dd>
        </div>
        <div class="humans-total">
          <dt>Humans</dt>
          <dd>{totals.humans}</dd>
        </div>
        <div class="bots-total">
          <dt>Bots</dt>
          <dd>{totals.bots}</dd>
        </div>
      </dl>
      <ClickChart series={answer.series} interval={answer.interval} timeZone={answer.tz} />
      <div class="breakdowns">
        {dimensions.map((d) => (
          <DimensionBreakdown key={d} dimension={d} breakdown={answer[d]} />
        ))}
        {rules !== undefined && <RulesBreakdown breakdown={answer.rules} rules={rules} />}
      </div>
    </>
  );
}
