// npm run bench: the url service's hot paths side by side with a bare node:http
// server, in one run, with one load generator. Figures are ratios to the bare server.
//
//   BENCH_SECONDS (5)         length of each measurement
//   BENCH_ROUNDS (3)          rounds; each figure is the median over them, each ratio over
//                             the rounds' ratios to a run of the baseline just before each
//   BENCH_CONNECTIONS (100)   concurrent connections
//   BENCH_LINKS (100000)      links seeded before measuring, and as many again with targeting rules
//   BENCH_DATABASE_URL        also run everything on this PostgreSQL server
//   BENCH_EMBEDDED (1)        0 skips the pass on the embedded PostgreSQL (npm start's default)
import { spawn } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startCluster, stopCluster } from "../runtime/internal/sql/embedded/cluster.ts";
import { dropDatabasesWithPrefix } from "../runtime/test/databases.ts";
import { startApp, type RunningApp } from "../test/support/app-process.ts";
import { tempDataDir } from "../runtime/vitest/temp-dir.ts";
import pg from "pg";
import { phase } from "./http-client.ts";
import { browserHeaders, generatorName, runLoad, type LoadResult, type Scenario } from "./load.ts";
import { seed } from "./seed.ts";
import { storedClicks } from "./stored-clicks.ts";
import { measureAnalyticsLatency, printAnalyticsLatency, type LatencyResult } from "./analytics-latency.ts";
import { checkAnalytics } from "./click-analytics.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
const links = Number(process.env.BENCH_LINKS ?? 100_000);
const postgresUrl = process.env.BENCH_DATABASE_URL?.trim();

interface Row {
  readonly name: string;
  /** The median round; `all` keeps every round, for the click totals. */
  readonly result: LoadResult & { all: readonly LoadResult[] };
  /** The median over rounds of this round's rps over the baseline's, measured just before. */
  readonly ratio: number;
  /** Every round's ratio, in order. */
  readonly rounds: string;
}

/** The middle item by `key` (the upper one of an even count). */
function middle<T>(items: readonly T[], key: (item: T) => number): T {
  return [...items].sort((x, y) => key(x) - key(y))[Math.floor(items.length / 2)]!;
}

function median(results: readonly LoadResult[]): LoadResult & { all: readonly LoadResult[] } {
  return { ...middle(results, (r) => r.rps), all: results };
}

function sumOk(row: Row): number {
  return row.result.all.reduce((n, r) => n + r.ok, 0);
}

/** Lookups answered 200 in every round of a mixed scenario: its shortens and stats count no click. */
function sumLookupsOk(row: Row): number {
  return row.result.all.reduce((n, r) => n + r.lookupsOk!, 0);
}

/**
 * (g): three targeting rules on every link, none of which the load's requests match (a
 * desktop browser's agent, from 127.0.0.1, whose country is unknown, with no query string):
 * every rule is evaluated on every request, the most a click of a link with rules costs
 * without a rule's answer, compared with (b), the same links without rules.
 */
const threeRules = {
  rules: [
    { device: "ios", url: "https://example.com/ios" },
    { countries: ["GB", "NL", "DE"], url: "https://example.com/eu" },
    { query: { name: "src", value: "qr" }, url: "https://example.com/qr" },
  ],
};

/** (f): lookups with some writes and reads of counts mixed in, as a live instance sees them. */
const mix = { shorten: 0.05, stats: 0.05 };

async function main(): Promise<void> {
  console.log(
    `load generator: ${generatorName()}, ${connections} connections, ${links} links; ` +
      `each figure is the median of ${rounds} rounds of ${seconds} s, each ratio the median of its rounds' ratios to a run of the baseline just before`,
  );
  if (process.env.BENCH_EMBEDDED !== "0") await benchEngine("embedded PostgreSQL", { DATABASE_URL: "" });
  if (postgresUrl) await benchEngine("PostgreSQL", { DATABASE_URL: postgresUrl });
}

async function benchEngine(engine: string, engineEnv: Record<string, string>): Promise<void> {
  const dataDir = tempDataDir("bench-");
  const prefix = `bench_${process.pid}_`;
  // Limits off: the bench shortens 100,000 links, and its load more, from one address.
  // Events on the SQL provider whatever the shell has: settle() waits for its backlog.
  const env = { ...engineEnv, NATS_URL: "", DATA_DIR: dataDir, DATABASE_NAME_PREFIX: prefix, LOG_LEVEL: "info", SHORTEN_LIMIT_PER_ADDRESS: "off", SHORTEN_LIMIT_PER_USER: "off", ANALYTICS_READ_LIMIT_PER_ADDRESS: "off",
    // Both seeded sets, (b)'s and (g)'s, stay cached.
    URL_CACHE_SIZE: String(Math.max(100_000, 2 * links)) };
  // The embedded cluster is the app's own, under its DATA_DIR; the bench joins it to read and tidy.
  const clusterDir = path.join(dataDir, "postgres");
  const serverUrl = async () => engineEnv.DATABASE_URL || (await startCluster({ dir: clusterDir })).url;
  const opts = { connections, seconds };
  const rows: Row[] = [];
  let exact: ExactRun = { code: "", answered: 0, humans: 0 };
  let latency: LatencyResult | undefined;
  let drain: ShortenDrain = { seconds: [], runSeconds: seconds };

  const bare = await startBare();
  const app = await startApp(env);
  try {
    const codes = await seed(app.url, links);
    const ruledCodes = await seed(app.url, links, threeRules);
    const databaseServer = await serverUrl();
    await settle(databaseServer, prefix);
    const codesFile = path.join(dataDir, "codes.txt");
    writeFileSync(codesFile, codes.join("\n") + "\n");
    const ruledCodesFile = path.join(dataDir, "ruled-codes.txt");
    writeFileSync(ruledCodesFile, ruledCodes.join("\n") + "\n");
    // Lookups carry a browser's User-Agent, so each click's classification is measured;
    // the baseline gets the same header, so its requests are as long to parse.
    const headers = browserHeaders;
    // Hot before uniform: the uniform run leaves thousands of updated rows for the
    // database to vacuum, which would compete with the next figure for the cores.
    const scenarios: [string, string, Scenario][] = [
      ["(a) bare node:http GET", bare.url, { method: "GET", path: "/", headers }],
      ["(b) GET /:code, uniform codes", app.url, { method: "GET", path: { codes, codesFile }, headers }],
      ["(c) GET /:code, one hot code", app.url, { method: "GET", path: `/${codes[0]}`, headers }],
      ["(d) POST /shorten", app.url, { method: "POST", path: "/shorten", uniqueBodies: true }],
      ["(e) GET /:code/stats", app.url, { method: "GET", path: { codes, codesFile, suffix: "/stats" } }],
      ["(f) 90% GET /:code uniform, 5% shorten, 5% stats", app.url, { method: "GET", path: { codes, codesFile }, mix, headers }],
      ["(g) GET /:code, uniform codes, 3 targeting rules each, none matching", app.url, { method: "GET", path: { codes: ruledCodes, codesFile: ruledCodesFile }, headers }],
    ];
    // Shorten last, in rounds of its own: each of its runs adds some 100k links, which
    // would push the seeded codes out of the cache the lookups are measured with.
    // (f) adds a twentieth of that, so it stays with the lookups.
    // Each figure is paired with a run of the baseline just before it: this host's speed
    // changes by up to 2x from one run to the next (the bare server alone made 12k, then
    // 36k rps in adjacent 4 s runs), and a ratio of runs seconds apart follows it less than
    // one of medians taken minutes apart.
    // (g) right before (b): their rounds alternate, so the two ratios are of neighbouring runs.
    const passes = [
      [2, 6, 1, 4, 5],
      [3],
    ];
    const results: LoadResult[][] = scenarios.map(() => []);
    const ratios: number[][] = scenarios.map(() => []);
    // (d)'s events: how long after each shorten run its url-shortened events took to be
    // published and counted by analytics.
    const shortenDrains: number[] = [];
    for (const pass of passes) {
      for (let round = 0; round < rounds; round++) {
        for (const i of pass) {
          const [, target, scenario] = scenarios[i]!;
          const base = await runLoad(bare.url, scenarios[0]![2], opts);
          const result = await runLoad(target, scenario, opts);
          results[0]!.push(base);
          results[i]!.push(result);
          ratios[i]!.push(result.rps / base.rps);
          const drainedMs = await settle(databaseServer, prefix);
          if (i === shortenScenario) shortenDrains.push(drainedMs);
        }
      }
    }
    scenarios.forEach(([name], i) => {
      const result = median(results[i]!);
      if (i === 0) rows.push({ name, result, ratio: 1, rounds: "baseline" });
      else rows.push({ name, result, ratio: middle(ratios[i]!, (r) => r), rounds: ratios[i]!.map((r) => r.toFixed(2)).join(" ") });
    });
    drain = { seconds: shortenDrains.map((ms) => ms / 1000), runSeconds: seconds };
    exact = await exactClicks(app);
    latency = await measureAnalyticsLatency(app.url, { serverUrl: databaseServer, database: `${prefix}url` });
  } finally {
    await bare.stop();
    const code = await app.stop("SIGTERM"); // a clean stop writes every counted click
    if (code !== 0) console.error(`app exited with ${code}:\n${app.output()}`);
  }

  // A clean stop of the app stopped its embedded cluster: started again here to read what it stored.
  const where = { serverUrl: await serverUrl(), database: `${prefix}url` };
  // The year of clicks written for the analytics timing is no lookup's.
  const storedTotal = (await storedClicks(where)) - (latency ? await storedClicks(where, latency.code) : 0);
  const storedExact = await storedClicks(where, exact.code);
  const analytics = await checkAnalytics(where, exact);
  if (engineEnv.DATABASE_URL) await dropDatabasesWithPrefix(engineEnv.DATABASE_URL, prefix);
  else await stopCluster(clusterDir);
  rmSync(dataDir, { recursive: true, force: true });
  printTable(engine, rows);
  const latencyOk = latency ? printAnalyticsLatency(latency) : false;
  const drainOk = printShortenDrain(drain);

  // A timed run ends with requests in flight: the server answered (and counted) them,
  // the load generator stopped listening. So the timed totals can differ by at most
  // one request per connection per run of (b), (c), (f) and (g); the fixed-count run below
  // must match exactly.
  const answered = sumOk(rows[1]!) + sumOk(rows[2]!) + sumLookupsOk(rows[5]!) + sumOk(rows[6]!) + exact.answered;
  const slack = 4 * rounds * connections;
  const exactOk = storedExact === exact.answered;
  const totalOk = storedTotal >= answered && storedTotal <= answered + slack;
  console.log(`clicks, fixed-count run: ${exact.answered} answered 200, ${storedExact} stored -> ${exactOk ? "equal" : "MISMATCH"}`);
  console.log(
    `clicks, whole run: ${answered} lookups answered 200 seen by the load generator (${sumLookupsOk(rows[5]!)} of them in (f)), ${storedTotal} stored ` +
      `(${storedTotal - answered} answered after the generator's deadline; at most ${slack}) -> ${totalOk ? "consistent" : "MISMATCH"}`,
  );
  console.log(analytics.lines.join("\n") + "\n");
  if (!exactOk || !totalOk || !analytics.ok || !latencyOk || !drainOk) process.exitCode = 1;
}

const exactRequests = 20_000;

/** A tool's User-Agent: half the fixed-count run's clicks are bots'. */
const curlHeaders = { "user-agent": "curl/8.5.0" };

interface ExactRun {
  readonly code: string;
  readonly answered: number;
  /** Answered 200 to a browser's User-Agent (a person's click); the rest were curl's. */
  readonly humans: number;
}

/**
 * GETs one fresh code exactly `exactRequests` times, 100 at a time, every answer awaited,
 * every other request as a browser and the rest as curl, so both humans and bots are counted.
 */
async function exactClicks(app: RunningApp): Promise<ExactRun> {
  const client = phase();
  try {
    const created = await client.send("POST", `${app.url}/shorten`, '{"url":"https://example.com/exact"}');
    const { code } = JSON.parse(created.body) as { code: string };
    let sent = 0;
    let answered = 0;
    let humans = 0;
    const worker = async () => {
      while (sent < exactRequests) {
        const human = sent++ % 2 === 0;
        if ((await client.send("GET", `${app.url}/${code}`, undefined, human ? browserHeaders : curlHeaders)).status === 200) {
          answered++;
          if (human) humans++;
        }
      }
    };
    await Promise.all(Array.from({ length: 100 }, worker));
    return { code, answered, humans };
  } finally {
    client.end();
  }
}

async function startBare(): Promise<{ url: string; stop: () => Promise<void> }> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "bare-server.ts");
  const child = spawn(process.execPath, ["--import", "tsx", script], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve) => {
    let out = "";
    child.stdout!.on("data", (c) => {
      out += c;
      const m = /listening on http:\/\/localhost:(\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => (child.once("exit", () => resolve()), child.kill("SIGTERM"))),
  };
}

/** The index of (d) in the scenarios. */
const shortenScenario = 3;

interface ShortenDrain {
  /** Per round of (d): seconds from the end of its run until its events were all handled. */
  readonly seconds: readonly number[];
  readonly runSeconds: number;
}

/** Prints how long (d)'s event backlog took to drain, against twice the run's duration; true when within. */
function printShortenDrain({ seconds: drains, runSeconds }: ShortenDrain): boolean {
  const worst = Math.max(...drains);
  const ok = drains.length > 0 && worst <= 2 * runSeconds;
  console.log(
    `events after (d): the url-shortened backlog of each ${runSeconds} s shorten run drained in ${drains.map((s) => s.toFixed(1)).join(", ")} s ` +
      `(at most ${2 * runSeconds} s, twice the run) -> ${ok ? "within" : "TOO SLOW"}`,
  );
  return ok;
}

/** Longest a settle waits for the app's background work to drain. */
const drainTimeoutMs = 300_000;

/**
 * Lets the app and PostgreSQL finish the work the last phase left before the next is
 * measured: url-shortened events still in url's outbox or waiting for the analytics
 * subscription (the seeding's 100,000, or a shorten run's, would otherwise be handled
 * during the next scenario and count against it), then dead rows and dirty pages. Only
 * the SQL provider's backlog is waited for: the bench runs without NATS_URL. Resolves
 * with how long the events took to drain.
 */
async function settle(serverUrl: string, prefix: string): Promise<number> {
  const started = Date.now();
  const [urlDb, pubsubDb] = [`${prefix}url`, `${prefix}encore_pubsub`].map((database) => {
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: url.href });
    client.on("error", () => {}); // a failure surfaces through the query in flight
    return client;
  });
  await Promise.all([urlDb!.connect(), pubsubDb!.connect()]);
  try {
    // The queue's statistics first: on a server with autovacuum off (CI's is), nothing else
    // gathers them, and without them acknowledging a delivery scans every delivery of its
    // subscription (some 300 a second, against some 1,500 with them).
    await pubsubDb!.query("ANALYZE pubsub_delivery");
    for (;;) {
      const [outbox, deliveries] = await Promise.all([
        urlDb!.query<{ n: number }>("SELECT count(*)::int AS n FROM url_shortened_outbox"),
        pubsubDb!.query<{ n: number }>("SELECT count(*)::int AS n FROM pubsub_delivery WHERE state <> 'dead'"),
      ]);
      const backlog = outbox.rows[0]!.n + deliveries.rows[0]!.n;
      if (backlog === 0) break;
      if (Date.now() - started > drainTimeoutMs) throw new Error(`the app's backlog did not drain in ${drainTimeoutMs / 1000} s: ${backlog} events left`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const drainedMs = Date.now() - started;
    if (drainedMs > 1000) console.log(`  (waited ${(drainedMs / 1000).toFixed(1)} s for the app's events to be handled)`);
    await pubsubDb!.query("VACUUM ANALYZE pubsub_delivery");
    await urlDb!.query("VACUUM ANALYZE urls");
    await urlDb!.query("CHECKPOINT");
    return drainedMs;
  } finally {
    await Promise.all([urlDb!.end(), pubsubDb!.end()]);
  }
}

function printTable(engine: string, rows: readonly Row[]): void {
  console.log(`\n${engine}`);
  console.log("| Scenario | rps | p50 ms | p99 ms | ratio to (a) | ratio, each round | non-2xx/errors |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const { name, result: r, ratio, rounds: each } of rows) {
    console.log(`| ${name} | ${Math.round(r.rps)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${ratio.toFixed(2)} | ${each} | ${r.failed} |`);
  }
}

await main();
