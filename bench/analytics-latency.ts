// How long GET /:code/analytics takes for a link with a year of clicks: one anonymous
// link (so no caller needs a token) gets `yearClicks` clicks written straight into its
// analytics rows, then each range is asked for sequentially, one request at a time.
import { phase } from "./http-client.ts";
import type { Where } from "./stored-clicks.ts";
import { seedYearOfClicks, yearClicks } from "./year-of-clicks.ts";

const requestsPerRange = 50;
/** The target for one request (docs/performance.md); reported, not asserted (the host's speed varies 2x). */
const targetMs = 50;
const dayMs = 86_400_000;

export interface LatencyRow {
  readonly name: string;
  readonly firstMs: number;
  readonly p50: number;
  readonly p99: number;
  /** totals.all of the last answer, and what it must be when known. */
  readonly total: number;
  readonly expectedTotal?: number;
  readonly points: number;
}

export interface LatencyResult {
  /** The link measured; its clicks are the seeded ones, not the load's. */
  readonly code: string;
  readonly rows: LatencyRow[];
  readonly hourlyRows: number;
  readonly dailyRows: number;
}

export async function measureAnalyticsLatency(appUrl: string, where: Where): Promise<LatencyResult> {
  const client = phase();
  try {
    const created = await client.send("POST", `${appUrl}/shorten`, '{"url":"https://example.com/a-year-of-clicks"}');
    if (created.status !== 200) throw new Error(`shortening the analytics link failed: ${created.status} ${created.body}`);
    const { code } = JSON.parse(created.body) as { code: string };
    const now = Date.now();
    const seeded = await seedYearOfClicks(where, code, now);
    const iso = (ms: number) => new Date(ms).toISOString();
    const ranges: [string, string, number?][] = [
      ["default (last 30 days, by day)", ""],
      // Every seeded click falls after this instant's day, so the total is known.
      ["from 365 days ago, by day", `?from=${iso(now - 365 * dayMs)}&interval=day`, yearClicks],
      ["last 7 days, by hour", `?from=${iso(now - 7 * dayMs)}&interval=hour`],
    ];
    const rows: LatencyRow[] = [];
    for (const [name, query, expectedTotal] of ranges) {
      const url = `${appUrl}/${code}/analytics${query}`;
      const ask = async () => {
        const started = performance.now();
        const res = await client.send("GET", url);
        const ms = performance.now() - started;
        if (res.status !== 200) throw new Error(`GET /${code}/analytics${query} answered ${res.status}: ${res.body}`);
        return { ms, body: JSON.parse(res.body) as { totals: { all: number }; series: unknown[] } };
      };
      const first = await ask();
      const times: number[] = [];
      let last = first.body;
      for (let i = 0; i < requestsPerRange; i++) {
        const { ms, body } = await ask();
        times.push(ms);
        last = body;
      }
      times.sort((a, b) => a - b);
      const percentile = (p: number) => times[Math.ceil((p / 100) * times.length) - 1]!;
      rows.push({ name, firstMs: first.ms, p50: percentile(50), p99: percentile(99), total: last.totals.all, expectedTotal, points: last.series.length });
    }
    return { code, rows, hourlyRows: seeded.hourly, dailyRows: seeded.daily };
  } finally {
    client.end();
  }
}

/** Prints the table; returns false when an answer's total is not the one seeded (a wrong answer, not a slow one). */
export function printAnalyticsLatency(result: LatencyResult): boolean {
  console.log(
    `GET /:code/analytics, one link with ${yearClicks} clicks over a year (${result.hourlyRows} hourly rows for the last 35 days, ` +
      `${result.dailyRows} daily rows before): ${requestsPerRange} sequential requests per range after a first one; ` +
      `target ${targetMs} ms a request (reported, not asserted; p99 of ${requestsPerRange} is their slowest)`,
  );
  console.log(`| Range | first ms | p50 ms | p99 ms | within ${targetMs} ms | totals.all | series points |`);
  console.log("|---|---:|---:|---:|---|---:|---:|");
  let totalsOk = true;
  for (const r of result.rows) {
    const totalOk = r.expectedTotal === undefined || r.total === r.expectedTotal;
    totalsOk &&= totalOk;
    const within = r.p99 <= targetMs ? "yes" : r.p50 <= targetMs ? "p50 only" : "no";
    const total = totalOk ? String(r.total) : `${r.total} MISMATCH (expected ${r.expectedTotal})`;
    console.log(`| ${r.name} | ${r.firstMs.toFixed(1)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${within} | ${total} | ${r.points} |`);
  }
  console.log("");
  return totalsOk;
}
