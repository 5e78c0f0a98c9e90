// npm run bench:pubsub: the SQL pub/sub provider side by side with Graphile Worker, a
// PostgreSQL job queue for Node.js, on the same PostgreSQL in the same run: the same
// messages, the same concurrency, each on a fresh database. Two workloads:
//   backlog: the messages are stored first (each system's bulk path), then handled;
//            rate = messages / time from starting the consumer to the last one handled
//   live:    64 publishers send one message at a time (each system's one-message call)
//            while the consumer runs; rate = messages / first publish to last handled
// each with a no-op handler and with a counting handler (what track-analytics does with
// an event: its key recorded once, its day's row incremented, group-committed). Every
// run checks that each message was handled exactly once and that nothing stays stored.
// Rounds alternate the systems, so a machine that changes speed touches both alike.
//
//   BENCH_MESSAGES (50000)    messages per run
//   BENCH_CONCURRENCY (24)    handlers at once (Graphile Worker's performance setting)
//   BENCH_ROUNDS (2)          rounds of every run
//   BENCH_DATABASE_URL        also on this PostgreSQL server
//   BENCH_EMBEDDED (1)        0 skips the embedded PostgreSQL
//   BENCH_NATS_URL            also the NATS JetStream provider (live, no-op), for reference
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { subscriptionSpec } from "../runtime/internal/pubsub/specs.ts";
import { startCluster, stopCluster } from "../runtime/internal/sql/embedded/cluster.ts";
import { PostgresDriver } from "../runtime/internal/sql/postgres-driver.ts";
import { dropDatabases } from "../runtime/vitest/databases.ts";
import { tempDataDir } from "../runtime/vitest/temp-dir.ts";
import { countedEvents, countingHandler } from "./pubsub/counting.ts";
import { graphileQueue } from "./pubsub/graphile-queue.ts";
import type { BenchMessage, QueueUnderTest } from "./pubsub/queue.ts";
import { sqlQueue } from "./pubsub/sql-queue.ts";
import { Tally } from "./pubsub/tally.ts";

const messages = Number(process.env.BENCH_MESSAGES ?? 50_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 24);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const liveWindow = 64;

type Workload = "backlog" | "live";
type Handler = "no-op" | "counting";
type System = "sql" | "graphile";

interface Run {
  readonly where: string;
  readonly system: System;
  readonly workload: Workload;
  readonly handler: Handler;
  readonly perSec: number;
}

const message = (n: number): string => JSON.stringify({ n, at: new Date().toISOString() } satisfies BenchMessage);

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One run on a fresh database of `serverUrl`; resolves to messages handled per second. */
async function measure(serverUrl: string, system: System, workload: Workload, handler: Handler): Promise<number> {
  const name = `bench_pubsub_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = PostgresDriver.connectionString(serverUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on("error", () => {}); // an idle connection ended with the database; a query in flight still fails
  let queue: QueueUnderTest | undefined;
  try {
    queue = system === "sql" ? await sqlQueue(serverUrl, name, concurrency) : await graphileQueue(url, concurrency);
    const tally = new Tally(messages);
    const count = handler === "counting" ? await countingHandler(pool) : undefined;
    const handle = async (m: BenchMessage) => {
      if (count) await count(`e${m.n}`, m.at.slice(0, 10));
      tally.handled(m.n);
    };
    let start: number;
    if (workload === "backlog") {
      await queue.preload(Array.from({ length: messages }, (_, n) => message(n)));
      start = performance.now();
      await queue.consume(handle);
    } else {
      await queue.consume(handle);
      start = performance.now();
      let next = 0;
      const publisher = async () => {
        while (next < messages) await queue!.publish(message(next++));
      };
      await Promise.all(Array.from({ length: liveWindow }, publisher));
    }
    await tally.done;
    const seconds = (performance.now() - start) / 1000;
    // Redeliveries would come after the last first delivery: give them a moment, then check.
    await until(async () => (await queue!.stored()) === 0, `${system}: every message acknowledged`);
    tally.check(system);
    if (count && (await countedEvents(pool)) !== messages) throw new Error(`${system}: the counting handler counted ${await countedEvents(pool)} of ${messages}`);
    return Math.round(messages / seconds);
  } finally {
    await queue?.close();
    await pool.end();
    await dropDatabases(serverUrl, [name]);
  }
}

async function natsLive(url: string): Promise<number> {
  const { natsProvider, deleteNatsStreams } = await import("../runtime/internal/pubsub/nats-provider.ts");
  const prefix = `bench${randomBytes(3).toString("hex")}`;
  const provider = natsProvider({ url, streamPrefix: prefix, logger: { warn: () => {}, error: () => {} } });
  const spec = subscriptionSpec("bench", "sink", { maxConcurrency: concurrency });
  try {
    await provider.start([{ name: "bench", deliveryGuarantee: "at-least-once" }], [spec]);
    const tally = new Tally(messages);
    provider.subscribe(spec, async (d) => tally.handled((JSON.parse(d.payload) as BenchMessage).n));
    const start = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: liveWindow }, async () => {
      while (next < messages) await provider.publish("bench", message(next++));
    }));
    await tally.done;
    const perSec = Math.round(messages / ((performance.now() - start) / 1000));
    tally.check("NATS");
    return perSec;
  } finally {
    await provider.close(1000);
    await deleteNatsStreams(url, prefix);
  }
}

async function onServer(where: string, serverUrl: string, results: Run[]): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    for (const workload of ["backlog", "live"] as const) {
      for (const handler of ["no-op", "counting"] as const) {
        // Alternating which goes first, so neither always runs on a warmer server.
        const order: System[] = round % 2 === 0 ? ["sql", "graphile"] : ["graphile", "sql"];
        for (const system of order) {
          const perSec = await measure(serverUrl, system, workload, handler);
          results.push({ where, system, workload, handler, perSec });
          console.log(`${where}, round ${round + 1}: ${system} ${workload} ${handler}: ${perSec}/s`);
        }
      }
    }
  }
}

const results: Run[] = [];
if (process.env.BENCH_EMBEDDED !== "0") {
  const dir = tempDataDir("bench-pubsub-");
  try {
    const cluster = await startCluster({ dir: path.join(dir, "postgres") });
    await onServer("embedded PostgreSQL", cluster.url, results);
  } finally {
    await stopCluster(path.join(dir, "postgres"));
    rmSync(dir, { recursive: true, force: true });
  }
}
if (process.env.BENCH_DATABASE_URL) await onServer("PostgreSQL server", process.env.BENCH_DATABASE_URL, results);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : Math.round((s[s.length / 2 - 1]! + s[s.length / 2]!) / 2);
};
console.log(`\n${messages} messages per run, ${concurrency} handlers at once, ${rounds} rounds (median; each run checked: every message handled once, none left stored)`);
console.log("| PostgreSQL | workload | handler | SQL provider /s | Graphile Worker /s | ratio |");
console.log("|---|---|---|---:|---:|---:|");
for (const where of [...new Set(results.map((r) => r.where))]) {
  for (const workload of ["backlog", "live"] as const) {
    for (const handler of ["no-op", "counting"] as const) {
      const of = (system: System) => median(results.filter((r) => r.where === where && r.workload === workload && r.handler === handler && r.system === system).map((r) => r.perSec));
      const sql = of("sql");
      const graphile = of("graphile");
      console.log(`| ${where} | ${workload} | ${handler} | ${sql} | ${graphile} | ${(sql / graphile).toFixed(2)} |`);
    }
  }
}
if (process.env.BENCH_NATS_URL) console.log(`\nFor reference, the NATS JetStream provider, live, no-op: ${await natsLive(process.env.BENCH_NATS_URL)}/s`);
