// npm run bench:hostile-analytics: a link's click analytics when its visitors send whatever
// they like. Two anonymous links get the same number of clicks through GET /:code: the
// "ordinary" one from 10 referrers and 5 browsers, the "hostile" one each from a random
// referrer host and a random bot-like agent (`curlx…`, which no list names). Then each
// link's analytics is read one request after another while a loop of POST /shorten runs
// beside. Printed: each link's hourly rows beside the bound (docs/app.md: 500 rows and 2
// rows of the rest per link and hour), the reads' p50 and p99 beside the 50 ms target, and
// the hostile link's p99 as a ratio to the ordinary link's from the same run. The run fails
// if a shorten is not 200 or a link's totals are not its clicks exactly.
//
//   BENCH_CLICKS (100000)    clicks per link
//   BENCH_READS (300)        analytics reads per link
//   BENCH_DATABASE_URL       the PostgreSQL server to use (default: an embedded cluster of its own)
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { startCluster, stopCluster } from "../runtime/internal/sql/embedded/cluster.ts";
import { dropDatabasesWithPrefix } from "../runtime/test/databases.ts";
import { startApp } from "../test/support/app-process.ts";
import { tempDataDir } from "../runtime/vitest/temp-dir.ts";
import { phase, type Phase } from "./http-client.ts";

const clicks = Number(process.env.BENCH_CLICKS ?? 100_000);
const reads = Number(process.env.BENCH_READS ?? 300);
const databaseUrl = process.env.BENCH_DATABASE_URL?.trim();
const targetP99Ms = 50;
const rowBound = 500 + 2;
const clickConcurrency = 32;

const dataDir = tempDataDir("bench-hostile-analytics-");
const prefix = `bench_hostile_${process.pid}_`;
const env = {
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl ?? "",
  DATABASE_NAME_PREFIX: prefix,
  NATS_URL: "",
  CRON: "off", // the hourly rows stay hourly for the whole run
  LOG_LEVEL: "info", // startApp waits for the "listening" line
  // One client address sends everything: the per-address limits would measure themselves.
  SHORTEN_LIMIT_PER_ADDRESS: "off",
  ANALYTICS_READ_LIMIT_PER_ADDRESS: "off",
};

const browsers = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
];

type Visitor = (i: number) => { referer: string; "user-agent": string };
const ordinary: Visitor = (i) => ({ referer: `https://site${i % 10}.example/page`, "user-agent": browsers[i % browsers.length]! });
const hostile: Visitor = () => ({
  referer: `https://r${randomBytes(6).toString("hex")}.example/`,
  "user-agent": `curlx${randomBytes(4).toString("hex")}/1.0`,
});

interface Measured {
  readonly name: string;
  readonly code: string;
  readonly rows: number;
  /** The most rows any one hour of the link has. */
  readonly rowsInAnHour: number;
  readonly p50: number;
  readonly p99: number;
  readonly shortens: number;
}

async function sendClicks(client: Phase, appUrl: string, code: string, visitor: Visitor): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < clicks) {
      const i = next++;
      const res = await client.send("GET", `${appUrl}/${code}`, undefined, visitor(i));
      if (res.status !== 200) throw new Error(`click ${i} on ${code} answered ${res.status}: ${res.body}`);
    }
  };
  await Promise.all(Array.from({ length: clickConcurrency }, worker));
}

interface Analytics {
  readonly totals: { all: number; humans: number; bots: number };
}

/** Waits until every click is in the link's analytics (written in batches after each answer). */
async function settled(client: Phase, appUrl: string, code: string): Promise<Analytics> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await client.send("GET", `${appUrl}/${code}/analytics`);
    if (res.status !== 200) throw new Error(`analytics of ${code} answered ${res.status}: ${res.body}`);
    const analytics = JSON.parse(res.body) as Analytics;
    if (analytics.totals.all === clicks) return analytics;
    if (Date.now() > deadline) throw new Error(`analytics of ${code} counted ${analytics.totals.all} of ${clicks} clicks after a minute`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** `reads` sequential analytics reads of `code`, with shortens looping beside them; their latencies in ms. */
async function readWhileShortening(client: Phase, appUrl: string, code: string): Promise<{ latencies: number[]; shortens: number }> {
  let reading = true;
  let shortens = 0;
  const shortening = (async () => {
    while (reading) {
      const res = await client.send("POST", `${appUrl}/shorten`, JSON.stringify({ url: `https://example.com/beside/${shortens}` }));
      if (res.status !== 200) throw new Error(`a shorten beside the reads answered ${res.status}: ${res.body}`);
      shortens++;
    }
  })();
  const latencies: number[] = [];
  try {
    for (let i = 0; i < reads; i++) {
      const started = performance.now();
      const res = await client.send("GET", `${appUrl}/${code}/analytics`);
      latencies.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`analytics read ${i} of ${code} answered ${res.status}: ${res.body}`);
    }
  } finally {
    reading = false;
    await shortening;
  }
  return { latencies, shortens };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(sql: pg.Client, appUrl: string, name: string, visitor: Visitor, bots: boolean): Promise<Measured> {
  const client = phase();
  try {
    const made = await client.send("POST", `${appUrl}/shorten`, JSON.stringify({ url: `https://example.com/${name}` }));
    if (made.status !== 200) throw new Error(`shortening the ${name} link answered ${made.status}: ${made.body}`);
    const { code } = JSON.parse(made.body) as { code: string };
    const started = performance.now();
    await sendClicks(client, appUrl, code, visitor);
    const totals = (await settled(client, appUrl, code)).totals;
    const expected = bots ? { all: clicks, humans: 0, bots: clicks } : { all: clicks, humans: clicks, bots: 0 };
    if (JSON.stringify(totals) !== JSON.stringify(expected)) throw new Error(`${name}: totals ${JSON.stringify(totals)}, expected ${JSON.stringify(expected)}`);
    console.log(`${name}: ${clicks} clicks sent and counted in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const { latencies, shortens } = await readWhileShortening(client, appUrl, code);
    const sorted = latencies.sort((a, b) => a - b);
    const { rows } = await sql.query<{ n: number; most: number }>(
      "SELECT sum(n)::int AS n, max(n)::int AS most FROM (SELECT count(*) AS n FROM link_clicks_hourly WHERE code = $1 GROUP BY hour) h",
      [code],
    );
    return { name, code, rows: rows[0]!.n, rowsInAnHour: rows[0]!.most, p50: percentile(sorted, 50), p99: percentile(sorted, 99), shortens };
  } finally {
    client.end();
  }
}

async function main(): Promise<void> {
  const app = await startApp(env);
  // Joining the embedded cluster keeps it running after the app stops: our connection counts as a user.
  const serverUrl = databaseUrl ?? (await startCluster({ dir: path.join(dataDir, "postgres") })).url;
  const url = new URL(serverUrl);
  url.pathname = `/${prefix}url`;
  const sql = new pg.Client({ connectionString: url.href });
  sql.on("error", () => {}); // a failure surfaces through the query in flight
  await sql.connect();
  try {
    const plain = await measure(sql, app.url, "ordinary", ordinary, false);
    const noisy = await measure(sql, app.url, "hostile", hostile, true);
    const where = databaseUrl ? "PostgreSQL server" : "embedded PostgreSQL";
    console.log(`\n${clicks} clicks per link, ${reads} sequential analytics reads each beside a loop of shortens (${where}):`);
    for (const m of [plain, noisy]) {
      console.log(
        `  ${m.name.padEnd(9)} hourly rows ${String(m.rows).padStart(4)}, at most ${m.rowsInAnHour} in an hour (bound ${rowBound}); ` +
          `read p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms (target ${targetP99Ms} ms); ${m.shortens} shortens beside, all 200`,
      );
    }
    console.log(`  hostile / ordinary read p99: ${(noisy.p99 / plain.p99).toFixed(2)}`);
    if (noisy.rowsInAnHour > rowBound) throw new Error(`an hour of the hostile link has ${noisy.rowsInAnHour} rows, over the bound of ${rowBound}`);
  } finally {
    await sql.end();
    await app.stop("SIGTERM");
    if (databaseUrl) await dropDatabasesWithPrefix(databaseUrl, prefix);
    else await stopCluster(path.join(dataDir, "postgres"));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
