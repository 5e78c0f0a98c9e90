// npm run bench:pubsub-ordered: what ordering (a topic's orderingAttribute)
// costs in throughput, on the SQL provider and on NATS JetStream. The same backlog of
// messages is published first, then drained by one instance with 24 handler slots,
// unordered and ordered over 1,000, 10 and 1 keys; rate = messages / time from
// subscribing to the last one handled, and each ordered rate is given as a ratio to the
// unordered one measured just before it. Two handlers: a no-op (the providers' own
// cost) and one that waits 5 ms (a handler doing I/O), where one key can do at most
// one message per handler run. Each run checks every key's messages came in order.
//
//   BENCH_MESSAGES (2000)     messages per run
//   BENCH_ROUNDS (1)          rounds; each figure is the median
//   BENCH_DATABASE_URL        the SQL provider on a fresh database of this PostgreSQL server
//   BENCH_NATS_URL            the NATS JetStream provider on this server
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import type { PubSubProvider, TopicSpec } from "../runtime/internal/pubsub/provider.ts";
import { subscriptionSpec } from "../runtime/internal/pubsub/specs.ts";
import { sqlProvider } from "../runtime/internal/pubsub/sql-provider.ts";
import { PostgresDriver } from "../runtime/internal/sql/postgres-driver.ts";
import { dropDatabases } from "../runtime/vitest/databases.ts";

const messages = Number(process.env.BENCH_MESSAGES ?? 2000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const databaseUrl = process.env.BENCH_DATABASE_URL?.trim();
const natsUrl = process.env.BENCH_NATS_URL?.trim();
const quiet = { warn: () => {}, error: () => {} };

/** Keys the messages are spread over; null: an unordered topic. */
const modes: (number | null)[] = [null, 1000, 10, 1];
const handlers = { "no-op": 0, "5 ms": 5 } as const;

interface Engine {
  readonly name: string;
  /** A provider on fresh storage, and how to throw that storage away. */
  open(topic: TopicSpec): Promise<{ provider: PubSubProvider; dispose(): Promise<void> }>;
}

const sqlEngine = (serverUrl: string): Engine => ({
  name: "SQL (PostgreSQL server)",
  async open(topic) {
    const name = `bench_ordered_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const driver = await PostgresDriver.open(serverUrl, name);
    const provider = sqlProvider({ driver, log: quiet, listenUrl: PostgresDriver.connectionString(serverUrl, name) });
    await provider.start([topic], [spec(topic)]);
    return {
      provider,
      async dispose() {
        await provider.close(1000);
        await driver.close();
        await dropDatabases(serverUrl, [name]);
      },
    };
  },
});

const natsEngine = (url: string): Engine => ({
  name: "NATS JetStream",
  async open(topic) {
    const { natsProvider, deleteNatsStreams } = await import("../runtime/internal/pubsub/nats-provider.ts");
    const prefix = `bench${randomBytes(3).toString("hex")}`;
    const provider = natsProvider({ url, streamPrefix: prefix, logger: quiet });
    await provider.start([topic], [spec(topic)]);
    return {
      provider,
      async dispose() {
        await provider.close(1000);
        await deleteNatsStreams(url, prefix);
      },
    };
  },
});

function spec(topic: TopicSpec) {
  return subscriptionSpec(topic.name, "sink", { maxConcurrency: 24 });
}

/** Messages handled per second draining a backlog of `messages` spread over `keys`. */
async function measure(engine: Engine, keys: number | null, waitMs: number): Promise<number> {
  const topic: TopicSpec = { name: "bench", deliveryGuarantee: "at-least-once", ...(keys !== null && { orderingAttribute: "key" }) };
  const { provider, dispose } = await engine.open(topic);
  try {
    // Each key's messages from one publisher, one after another, so their order is
    // defined; up to 64 publishers at once.
    const lanes = Math.min(keys ?? 64, 64);
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        for (let n = 0; n < messages; n++) {
          const k = n % (keys ?? 64);
          if (k % lanes !== lane) continue;
          const key = keys === null ? undefined : `k${k}`;
          await provider.publish("bench", JSON.stringify({ key, n }), undefined, key);
        }
      }),
    );
    const last = new Map<string, number>();
    let handled = 0;
    let outOfOrder = 0;
    const start = performance.now();
    provider.subscribe(spec(topic), async (d) => {
      const { key, n } = JSON.parse(d.payload) as { key?: string; n: number };
      if (waitMs > 0) await sleep(waitMs);
      if (key !== undefined) {
        if ((last.get(key) ?? -1) > n) outOfOrder++;
        last.set(key, n);
      }
      handled++;
    });
    const deadline = Date.now() + 600_000;
    while (handled < messages) {
      if (Date.now() > deadline) throw new Error(`${engine.name}: ${handled} of ${messages} handled`);
      await sleep(5);
    }
    const seconds = (performance.now() - start) / 1000;
    if (outOfOrder > 0) throw new Error(`${engine.name}: ${outOfOrder} messages handled before one published earlier with their key`);
    return Math.round(messages / seconds);
  } finally {
    await dispose();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const engines = [...(databaseUrl ? [sqlEngine(databaseUrl)] : []), ...(natsUrl ? [natsEngine(natsUrl)] : [])];
  if (engines.length === 0) throw new Error("set BENCH_DATABASE_URL and/or BENCH_NATS_URL");
  console.log(`${messages} messages, 24 handler slots, one instance, median of ${rounds} round(s)`);
  for (const engine of engines) {
    for (const [handler, waitMs] of Object.entries(handlers)) {
      const rates = new Map<number | null, number[]>(modes.map((m) => [m, []]));
      const ratios = new Map<number | null, number[]>(modes.map((m) => [m, []]));
      for (let round = 0; round < rounds; round++) {
        const base = await measure(engine, null, waitMs);
        rates.get(null)!.push(base);
        for (const keys of modes.filter((m) => m !== null)) {
          const rate = await measure(engine, keys, waitMs);
          rates.get(keys)!.push(rate);
          ratios.get(keys)!.push(rate / base);
        }
      }
      for (const keys of modes) {
        const what = keys === null ? "unordered" : `ordered, ${keys} key${keys === 1 ? "" : "s"}`;
        const ratio = keys === null ? "" : `  ${median(ratios.get(keys)!).toFixed(3)}× unordered`;
        console.log(`${engine.name.padEnd(24)} ${handler.padEnd(6)} ${what.padEnd(20)} ${String(median(rates.get(keys)!)).padStart(6)} msg/s${ratio}`);
      }
    }
  }
}

await main();
