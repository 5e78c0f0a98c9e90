import { boundedRead } from "../../limits/bounded-read";
import { db } from "../db";

/** Windows of recentClicks: 14 days. */
const recentWindows = 14;

/**
 * Clicks (humans and bots) of each link per 24-hour window over the last 14 days, oldest
 * first, the last window ending with the current hour: a sparkline's worth per link of a
 * page, in one statement. Windows are rolling rather than calendar days, so they need no
 * time zone; 14 days lie well within the hourly retention. A bounded read (limits/bounded-read.ts),
 * as every read of click analytics.
 */
export async function recentClicks(codes: readonly string[], now = new Date()): Promise<Map<string, number[]>> {
  const recent = new Map<string, number[]>(codes.map((code) => [code, new Array<number>(recentWindows).fill(0)]));
  if (codes.length === 0) return recent;
  const end = new Date(Math.floor(now.getTime() / 3_600_000 + 1) * 3_600_000);
  const rows = await boundedRead(db, (tx) => tx.queryAll<{ code: string; ago: number; clicks: number }>`
    SELECT code, floor(extract(epoch FROM ${end}::timestamptz - hour - interval '1 hour') / 86400)::int AS ago, sum(clicks)::float8 AS clicks
    FROM link_clicks_hourly
    WHERE code = ANY(${codes}::text[]) AND hour >= ${end}::timestamptz - ${recentWindows}::int * interval '1 day' AND hour < ${end}::timestamptz
    GROUP BY 1, 2`);
  for (const r of rows) recent.get(r.code)![recentWindows - 1 - r.ago] += r.clicks;
  return recent;
}
