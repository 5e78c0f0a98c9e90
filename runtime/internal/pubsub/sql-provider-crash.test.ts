import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, test } from "vitest";
import { config } from "../config/mod.ts";
import { dropDatabases } from "../../test/databases.ts";
import type { Delivery } from "./provider.ts";
import { subscriptionSpec } from "./specs.ts";
import { sqlProvider } from "./sql-provider.ts";
import { openStore } from "./testdata/open-store.ts";

const serverUrl = config().databaseUrl ?? undefined;
const where = {
  serverUrl,
  name: `crash_${randomBytes(4).toString("hex")}`,
  pgliteDir: serverUrl ? undefined : mkdtempSync(path.join(tmpdir(), "pubsub-crash-")),
};
const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "testdata", "hanging-subscriber.ts");

afterAll(async () => {
  if (serverUrl) await dropDatabases(serverUrl, [where.name]);
});

test("a process killed mid-delivery: the message is delivered again after restart and counted once", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    env: { ...process.env, SERVER_URL: serverUrl ?? "", STORE_NAME: where.name, PGLITE_DIR: where.pgliteDir ?? "" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const firstId = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c) => {
      out += c;
      const id = /handling (\S+)/.exec(out)?.[1];
      if (id) resolve(id);
    });
    child.once("exit", (code) => reject(new Error(`subscriber exited early (${code}): ${out}`)));
  });
  child.kill("SIGKILL");
  await new Promise((r) => child.once("exit", r));

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
    const deadline = Date.now() + 10_000;
    while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1500)); // past another ack deadline: no further delivery
    expect(seen.map((d) => [d.messageId, d.attempt])).toEqual([[firstId, 2]]);
    expect(await driver.query("SELECT count(*)::int AS n FROM counted", [])).toEqual([{ n: 1 }]);
  } finally {
    await provider.close(1000);
    await driver.close();
  }
}, 30_000);
