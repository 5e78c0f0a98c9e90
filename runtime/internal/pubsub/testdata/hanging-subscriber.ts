// A process that publishes one message, starts handling it, and never finishes:
// the crash tests kill it there, mid-delivery. NATS_STREAM_PREFIX selects NATS;
// otherwise the SQL store named by SERVER_URL and STORE_NAME.
import type { PubSubProvider } from "../provider.ts";
import { sqlProvider } from "../sql-provider.ts";
import { subscriptionSpec } from "../specs.ts";
import { openStore } from "../../../test/open-store.ts";

const quiet = { warn: () => {}, error: () => {} };
const spec = subscriptionSpec("events", "counter", { ackDeadline: "1s" });

async function open(): Promise<PubSubProvider> {
  if (process.env.NATS_STREAM_PREFIX) {
    const { natsProvider } = await import("../nats-provider.ts");
    return natsProvider({ url: process.env.NATS_SERVER!, streamPrefix: process.env.NATS_STREAM_PREFIX, logger: quiet });
  }
  const driver = await openStore({ serverUrl: process.env.SERVER_URL!, name: process.env.STORE_NAME! });
  return sqlProvider({ driver, log: quiet, pollIntervalMs: 100 });
}

const provider = await open();
await provider.start([{ name: "events", deliveryGuarantee: "at-least-once" }], [spec]);
provider.subscribe(spec, (d) => {
  process.stdout.write(`handling ${d.messageId}\n`);
  return new Promise(() => {});
});
await provider.publish("events", '{"n":1}');
