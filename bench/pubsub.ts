// npm run bench:pubsub: end-to-end delivery throughput of each pub/sub provider:
// messages published (64 at a time) until every one was handled by a subscriber.
//
//   BENCH_MESSAGES (5000)     messages per provider
//   BENCH_DATABASE_URL        also measure the SQL provider on this PostgreSQL server
//   BENCH_EMBEDDED (1)        0 skips the pass on the embedded PostgreSQL
//   BENCH_NATS_URL            also measure NATS JetStream on this server
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { dropDatabases } from "../runtime/vitest/databases.ts";
import type { PubSubProvider } from "../runtime/internal/pubsub/provider.ts";
import { subscriptionSpec } from "../runtime/internal/pubsub/specs.ts";
import { sqlProvider } from "../runtime/internal/pubsub/sql-provider.ts";
import { PostgresDriver } from "../runtime/internal/sql/postgres-driver.ts";
import { startCluster, stopCluster } from "../runtime/internal/sql/embedded/cluster.ts";
import { openStore } from "../runtime/test/open-store.ts";
import { tempDataDir } from "../runtime/vitest/temp-dir.ts";

const messages = Number(process.env.BENCH_MESSAGES ?? 5000);
const publishWindow = 64;
const quiet = { warn: () => {}, error: () => {} };
const topic = { name: "bench", deliveryGuarantee: "at-least-once" } as const;
const spec = subscriptionSpec("bench", "sink", { maxConcurrency: 100 });

interface Result {
  readonly provider: string;
  readonly publishPerSec: number;
  readonly deliveredPerSec: number;
}

async function measure(name: string, provider: PubSubProvider): Promise<Result> {
  let handled = 0;
  let allHandled: () => void = () => {};
  const done = new Promise<void>((resolve) => (allHandled = resolve));
  await provider.start([topic], [spec]);
  provider.subscribe(spec, async () => {
    if (++handled === messages) allHandled();
  });
  const start = performance.now();
  let next = 0;
  const publisher = async () => {
    while (next < messages) {
      next++;
      await provider.publish("bench", JSON.stringify({ n: next, at: new Date().toISOString() }));
    }
  };
  await Promise.all(Array.from({ length: publishWindow }, publisher));
  const published = performance.now();
  await done;
  const delivered = performance.now();
  await provider.close(1000);
  return {
    provider: name,
    publishPerSec: Math.round(messages / ((published - start) / 1000)),
    deliveredPerSec: Math.round(messages / ((delivered - start) / 1000)),
  };
}

async function sqlOn(label: string, serverUrl: string): Promise<Result> {
  const where = { serverUrl, name: `bench_pubsub_${randomBytes(4).toString("hex")}` };
  const driver = await openStore(where);
  try {
    const listenUrl = PostgresDriver.connectionString(serverUrl, where.name);
    return await measure(label, sqlProvider({ driver, log: quiet, listenUrl }));
  } finally {
    await driver.close();
    await dropDatabases(serverUrl, [where.name]);
  }
}

/** The SQL provider on an embedded cluster of its own, with the settings `npm start` uses. */
async function sqlOnEmbedded(): Promise<Result> {
  const dir = tempDataDir("bench-pubsub-");
  try {
    const cluster = await startCluster({ dir: path.join(dir, "postgres") });
    return await sqlOn("SQL on the embedded PostgreSQL", cluster.url);
  } finally {
    await stopCluster(path.join(dir, "postgres"));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function natsOn(url: string): Promise<Result> {
  const { natsProvider, deleteNatsStreams } = await import("../runtime/internal/pubsub/nats-provider.ts");
  const prefix = `bench${randomBytes(3).toString("hex")}`;
  try {
    return await measure("NATS JetStream", natsProvider({ url, streamPrefix: prefix, logger: quiet }));
  } finally {
    await deleteNatsStreams(url, prefix);
  }
}

const results: Result[] = [];
if (process.env.BENCH_EMBEDDED !== "0") results.push(await sqlOnEmbedded());
if (process.env.BENCH_DATABASE_URL) results.push(await sqlOn("SQL on PostgreSQL", process.env.BENCH_DATABASE_URL));
if (process.env.BENCH_NATS_URL) results.push(await natsOn(process.env.BENCH_NATS_URL));
console.log(`\n${messages} messages, published ${publishWindow} at a time, one subscription (maxConcurrency 100)`);
console.log("| Provider | published/s | delivered end to end/s |");
console.log("|---|---:|---:|");
for (const r of results) console.log(`| ${r.provider} | ${r.publishPerSec} | ${r.deliveredPerSec} |`);
