// A process that publishes one message, starts handling it, and never finishes:
// the crash test kills it there, mid-delivery.
import { sqlProvider } from "../sql-provider.ts";
import { subscriptionSpec } from "../specs.ts";
import { openStore } from "./open-store.ts";

const driver = await openStore({
  serverUrl: process.env.SERVER_URL || undefined,
  name: process.env.STORE_NAME!,
  pgliteDir: process.env.PGLITE_DIR,
});
const spec = subscriptionSpec("events", "counter", { ackDeadline: "1s" });
const provider = sqlProvider({ driver, log: { warn: () => {} }, pollIntervalMs: 100 });
await provider.start([{ name: "events", deliveryGuarantee: "at-least-once" }], [spec]);
provider.subscribe(spec, (d) => {
  process.stdout.write(`handling ${d.messageId}\n`);
  return new Promise(() => {});
});
await provider.publish("events", '{"n":1}');
