import { cargo } from "async";
import type pg from "pg";

/**
 * A handler that does what the app's track-analytics subscription does with each
 * url-shortened event, on a database of the run's own: records the event's key
 * unless it was counted already and adds it to its day's row, concurrent calls
 * group-committed in one statement (the statement of analytics/counting/count-once.ts;
 * the bench cannot load the app's own module, which needs the Encore runtime).
 */
export async function countingHandler(pool: pg.Pool): Promise<(key: string, day: string) => Promise<void>> {
  await pool.query(`
    CREATE TABLE IF NOT EXISTS processed_events (event_key text PRIMARY KEY, processed_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE IF NOT EXISTS daily_stats (date date UNIQUE NOT NULL, urls_created integer NOT NULL DEFAULT 0);
    TRUNCATE processed_events, daily_stats`);
  const batches = cargo<{ key: string; day: string }>(async (batch: { key: string; day: string }[]) => {
    const sorted = [...batch].sort((a, b) => (a.key < b.key ? -1 : 1));
    await pool.query(
      `WITH fresh AS (
         INSERT INTO processed_events (event_key) SELECT unnest($1::text[])
         ON CONFLICT (event_key) DO NOTHING RETURNING event_key),
       counted AS (
         INSERT INTO daily_stats (date, urls_created)
         SELECT e.day::date, count(*)::int
         FROM fresh JOIN unnest($1::text[], $2::text[]) AS e (key, day) ON e.key = fresh.event_key
         GROUP BY e.day ORDER BY e.day
         ON CONFLICT (date) DO UPDATE SET urls_created = daily_stats.urls_created + EXCLUDED.urls_created)
       SELECT count(*) FROM fresh`,
      [sorted.map((e) => e.key), sorted.map((e) => e.day)],
    );
  }, 500);
  return (key, day) => batches.pushAsync({ key, day });
}

/** The day's count the handler stored: each event once. */
export async function countedEvents(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>("SELECT coalesce(sum(urls_created), 0)::int AS n FROM daily_stats");
  return rows[0]!.n;
}
