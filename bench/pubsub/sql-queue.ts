import type { PubSubProvider } from "../../runtime/internal/pubsub/provider.ts";
import { subscriptionSpec } from "../../runtime/internal/pubsub/specs.ts";
import { sqlProvider } from "../../runtime/internal/pubsub/sql-provider.ts";
import type { SqlDriver } from "../../runtime/internal/sql/driver.ts";
import { PostgresDriver } from "../../runtime/internal/sql/postgres-driver.ts";
import type { BenchMessage, QueueUnderTest } from "./queue.ts";

const quiet = { warn: () => {}, error: () => {} };
const topic = { name: "bench", deliveryGuarantee: "at-least-once" } as const;
/** Publishes in flight while preloading: the provider group-commits them. */
const preloadWindow = 500;

/** The runtime's SQL pub/sub provider on database `name` of `serverUrl`, with LISTEN/NOTIFY as the app runs it. */
export async function sqlQueue(serverUrl: string, name: string, concurrency: number): Promise<QueueUnderTest> {
  const driver: SqlDriver = await PostgresDriver.open(serverUrl, name);
  const spec = subscriptionSpec("bench", "sink", { maxConcurrency: concurrency });
  const provider: PubSubProvider = sqlProvider({ driver, log: quiet, listenUrl: PostgresDriver.connectionString(serverUrl, name) });
  // Started with the subscription declared, so what is published is stored for it; handled once consume() subscribes.
  await provider.start([topic], [spec]);
  return {
    name: "SQL provider",
    async preload(payloads) {
      let next = 0;
      const publisher = async () => {
        while (next < payloads.length) await provider.publish("bench", payloads[next++]!);
      };
      await Promise.all(Array.from({ length: preloadWindow }, publisher));
    },
    async publish(payload) {
      await provider.publish("bench", payload);
    },
    async consume(handler) {
      provider.subscribe(spec, (d) => handler(JSON.parse(d.payload) as BenchMessage));
    },
    async stored() {
      const [row] = (await driver.query("SELECT count(*)::int AS n FROM pubsub_delivery", [])) as { n: number }[];
      return row!.n;
    },
    async close() {
      await provider.close(1000);
      await driver.close();
    },
  };
}
