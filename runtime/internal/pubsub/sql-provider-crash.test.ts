import { randomBytes } from "node:crypto";
import { afterAll, expect, test } from "vitest";
import { config } from "../config/mod.ts";
import { dropDatabases } from "../../vitest/databases.ts";
import type { Delivery } from "./provider.ts";
import { subscriptionSpec } from "./specs.ts";
import { sqlProvider } from "./sql-provider.ts";
import { killMidDelivery, waitFor } from "./testdata/crash.ts";
import { openStore } from "../../test/open-store.ts";

const serverUrl = config().databaseUrl!;
const where = { serverUrl, name: `crash_${randomBytes(4).toString("hex")}` };

afterAll(() => dropDatabases(serverUrl, [where.name]));

test("a process killed mid-delivery: the message is delivered again after restart and counted once", async () => {
  const firstId = await killMidDelivery({ SERVER_URL: serverUrl, STORE_NAME: where.name });

  const driver = await openStore(where);
  const spec = subscriptionSpec("events", "counter", { ackDeadline: "1s" });
  const provider = sqlProvider({ driver, log: { warn: () => {} }, pollIntervalMs: 100 });
  await driver.query("CREATE TABLE counted (message_id text PRIMARY KEY)", []);
  const seen: Delivery[] = [];
  try {
    await provider.start([{ name: "events", deliveryGuarantee: "at-least-once" }], [spec]);
    provider.subscribe(spec, async (d) => {
      seen.push(d);
      await driver.query("INSERT INTO counted VALUES ($1) ON CONFLICT DO NOTHING", [d.messageId]);
    });
    await waitFor(() => seen.length > 0, 10_000);
    await new Promise((r) => setTimeout(r, 1500)); // past another ack deadline: no further delivery
    expect(seen.map((d) => [d.messageId, d.attempt])).toEqual([[firstId, 2]]);
    expect(await driver.query("SELECT count(*)::int AS n FROM counted", [])).toEqual([{ n: 1 }]);
  } finally {
    await provider.close(1000);
    await driver.close();
  }
}, 30_000);
