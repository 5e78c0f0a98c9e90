import { useEffect, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import { ErrCode, isAPIError, type link_rules, type url } from "../client.gen";
import { Alert } from "../components/Alert";
import { ClickAnalytics } from "../components/ClickAnalytics";
import { formatTime } from "../format";
import { href } from "../router";
import { currentSession } from "../session";

/**
 * A link's public facts; for its signed-in owner, a deleted or disabled link's too, which
 * the public stats answer as not found but the owner still reads (with its analytics).
 */
async function factsOf(code: string): Promise<url.StatsResponse> {
  try {
    return await client.url.stats(code, {});
  } catch (err) {
    if (!(isAPIError(err) && err.code === ErrCode.NotFound && currentSession())) throw err;
    const own = await client.links.getLink(code).catch(() => Promise.reject(err)); // not the owner's: the first answer stands
    return { code: own.code, originalUrl: own.originalUrl, clicks: own.clicks, createdAt: own.createdAt };
  }
}

/** The link's targeting rules, for those who may read the link (its workspace's members); null for anyone else. */
async function rulesOf(code: string): Promise<link_rules.RedirectRule[] | null> {
  if (!currentSession()) return null;
  return client.links.getLink(code).then(
    (link) => link.rules,
    () => null, // not theirs to read: its analytics show the rules by id, if they may read those
  );
}

/** One link: what it is (public), and its clicks over time and by source (its owner's, or anyone's for an anonymous link). */
export function StatsPage({ code }: { code: string }) {
  const [stats, setStats] = useState<url.StatsResponse | null>(null);
  const [rules, setRules] = useState<link_rules.RedirectRule[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setStats(null);
    setError(null);
    // Read together, so the rules' panel labels its rows from the first answer on.
    Promise.all([factsOf(code), rulesOf(code)]).then(
      ([facts, readable]) => {
        setRules(readable);
        setStats(facts);
      },
      (err: unknown) => setError(errorMessage(err)),
    );
  }, [code]);

  return (
    <>
      <h1 tabIndex={-1}>Link {code}</h1>
      {/* Above what loads, so it never moves under a pointer aiming at it as the stats and charts arrive. */}
      <p class="report-link">
        <a href={href.report(code)}>Report this link</a> if it leads to spam, phishing, malware or anything illegal.
      </p>
      {error && <Alert>{error}</Alert>}
      {!stats && !error && <p aria-live="polite">Loading…</p>}
      {stats && (
        <>
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
          {/* "All time" starts at the link's creation, so the clicks wait for the facts. */}
          <ClickAnalytics code={code} createdAt={stats.createdAt} rules={rules} />
        </>
      )}
    </>
  );
}
