// Writes bench:scale's links and their click analytics straight into the url database,
// a chunk of links per statement so progress shows and no transaction grows without end.
import { readFileSync } from "node:fs";
import type pg from "pg";
import { clicksSql, codeSql, daysSql, hourlyDays, type ScaleShape } from "./shape.ts";

const chunk = 50_000;

/** Every link of `shape`: the first `bigOwnerLinks` the real account's, then the others' owners in turn. */
export async function seedLinks(client: pg.Client, shape: ScaleShape, bigOwner: string, progress: (text: string) => void): Promise<void> {
  const others = Math.max(1, shape.owners - 1);
  for (let from = 1; from <= shape.links; from += chunk) {
    const to = Math.min(shape.links, from + chunk - 1);
    // Odd numbers are clicked (their clicks as the Zipf curve gives them, any age); even ones
    // never were, made 91 to 365 days ago: what the cleanup removes.
    await client.query(
      `INSERT INTO urls (code, original_url, clicks, created_at, workspace_id, created_by, title)
       SELECT ${codeSql("g")}, 'https://example.com/scale/' || g || '?ref=' || (g % 97),
              CASE WHEN g % 2 = 1 THEN ${clicksSql(shape, "(g + 1) / 2")} ELSE 0 END,
              now() - make_interval(days => CASE WHEN g % 2 = 1 THEN g % 365 ELSE 91 + g % 275 END, secs => g % 86400),
              owner, owner, CASE WHEN g % 3 = 0 THEN 'Scale page ' || g END
       FROM generate_series($1::int, $2::int) AS g
       CROSS JOIN LATERAL (SELECT CASE WHEN g <= $3 THEN $4 ELSE 'scale-owner-' || (g % $5) END AS owner) AS o`,
      [from, to, shape.bigOwnerLinks, bigOwner, others],
    );
    progress(`links ${to.toLocaleString("en")} of ${shape.links.toLocaleString("en")}`);
  }
}

const referrers = "ARRAY['direct','google.com','t.co','news.ycombinator.com','reddit.com','github.com','bsky.app']";
const countries = "ARRAY['US','GB','DE','IN','FR','NL','BR','JP','unknown']";
const browsers = "ARRAY['Chrome','Mobile Safari','Safari','Firefox','Edge']";
const oses = "ARRAY['Windows','Android','iOS','macOS','Linux']";
const devices = "ARRAY['desktop','mobile','tablet']";

/**
 * The clicked links' analytics: each link's clicks over its last √c days (shape.ts), one
 * hour row per day inside the hourly retention, seven day rows (all, the five dimensions and
 * rule none) per older day. A tenth of the link-days are bots'. Returns the rows written.
 */
export async function seedClicks(client: pg.Client, shape: ScaleShape, progress: (text: string) => void): Promise<{ hourly: number; daily: number }> {
  const clicked = Math.floor(shape.links / 2);
  let hourly = 0;
  let daily = 0;
  for (let from = 1; from <= clicked; from += chunk) {
    const to = Math.min(clicked, from + chunk - 1);
    // Day k (0: today) of link r gets c/d clicks, the first c % d days one more: they sum to c.
    const days = `
      SELECT r, ${codeSql("2 * r - 1")} AS code, k,
             c / d + CASE WHEN k < c % d THEN 1 ELSE 0 END AS n,
             (r + k) % 10 = 0 AS bot
      FROM generate_series($1::int, $2::int) AS r
      CROSS JOIN LATERAL (SELECT ${clicksSql(shape, "r")} AS c) AS cc
      CROSS JOIN LATERAL (SELECT ${daysSql("c")} AS d) AS dd
      CROSS JOIN LATERAL generate_series(0, d - 1) AS k`;
    const h = await client.query(
      `INSERT INTO link_clicks_hourly (code, hour, bot, referrer, country, browser, os, device, clicks)
       SELECT code, date_trunc('hour', now()) - make_interval(days => k), bot,
              (${referrers})[1 + (r + k) % 7], (${countries})[1 + (r * 7 + k) % 9],
              CASE WHEN bot THEN 'curl' ELSE (${browsers})[1 + (r + 3 * k) % 5] END,
              CASE WHEN bot THEN 'unknown' ELSE (${oses})[1 + (r + k) % 5] END,
              CASE WHEN bot THEN 'bot' ELSE (${devices})[1 + (r + k) % 3] END, n
       FROM (${days}) AS x WHERE k < ${hourlyDays}`,
      [from, to],
    );
    const dd = await client.query(
      `INSERT INTO link_clicks_daily (code, dimension, day, value, humans, bots)
       SELECT code, dim.dimension, (now() AT TIME ZONE 'UTC')::date - k, dim.value,
              CASE WHEN bot THEN 0 ELSE n END, CASE WHEN bot THEN n ELSE 0 END
       FROM (${days}) AS x
       CROSS JOIN LATERAL (VALUES ('all', ''), ('rule', ''),
         ('referrer', (${referrers})[1 + (r + k) % 7]), ('country', (${countries})[1 + (r * 7 + k) % 9]),
         ('browser', CASE WHEN bot THEN 'curl' ELSE (${browsers})[1 + (r + 3 * k) % 5] END),
         ('os', CASE WHEN bot THEN 'unknown' ELSE (${oses})[1 + (r + k) % 5] END),
         ('device', CASE WHEN bot THEN 'bot' ELSE (${devices})[1 + (r + k) % 3] END)) AS dim(dimension, value)
       WHERE k >= ${hourlyDays}`,
      [from, to],
    );
    hourly += h.rowCount ?? 0;
    daily += dd.rowCount ?? 0;
    progress(`analytics of clicked links ${to.toLocaleString("en")} of ${clicked.toLocaleString("en")}: ${hourly.toLocaleString("en")} hour rows, ${daily.toLocaleString("en")} day rows`);
  }
  await client.query("ANALYZE");
  return { hourly, daily };
}

/**
 * The analytics service's daily_stats for the links written: each UTC day's links, as its
 * track-analytics consumer counts their url-shortened events (one row per day). Returns the days.
 */
export async function seedDailyStats(url: pg.Client, analytics: pg.Client): Promise<number> {
  const days = await url.query<{ day: string; n: number }>(
    `SELECT to_char((created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, count(*)::int AS n FROM urls GROUP BY 1`,
  );
  await analytics.query(
    `INSERT INTO daily_stats (date, urls_created) SELECT day::date, n FROM unnest($1::text[], $2::int[]) AS d(day, n)
     ON CONFLICT (date) DO UPDATE SET urls_created = daily_stats.urls_created + EXCLUDED.urls_created`,
    [days.rows.map((r) => r.day), days.rows.map((r) => r.n)],
  );
  return days.rows.length;
}

/**
 * The workspaces' click analytics (url migration 20) of the links' rows seeded: what the
 * flush and the compaction would have left (each workspace's hours, at most 50 values a
 * dimension; days older than the hourly retention), made by the migration's own statements,
 * which count the clicks stored before it the same way.
 */
export async function seedWorkspaceClicks(client: pg.Client): Promise<{ hourly: number; daily: number }> {
  const migration = readFileSync(new URL("../../url/migrations/20_workspace_click_analytics.up.sql", import.meta.url), "utf8");
  const lock = "LOCK TABLE link_clicks_hourly, link_clicks_rules_hourly, link_clicks_daily IN SHARE MODE;";
  const at = migration.indexOf(lock);
  if (at < 0) throw new Error("url migration 20 no longer counts the stored clicks after its LOCK TABLE: update seedWorkspaceClicks");
  await client.query(migration.slice(at + lock.length));
  const rows = await client.query<{ hourly: number; daily: number }>(
    "SELECT (SELECT count(*) FROM workspace_clicks_hourly)::int AS hourly, (SELECT count(*) FROM workspace_clicks_daily)::int AS daily",
  );
  return rows.rows[0]!;
}
