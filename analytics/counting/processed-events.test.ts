import { expect, test } from "vitest";
import { db } from "../db";
import { keyRetentionDays, pruneProcessedEvents } from "./processed-events";
import { dailyReport } from "../daily-report";
import { countOnce } from "./count-once";

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

async function seedKey(key: string, processedAt: Date): Promise<void> {
  await db.exec`INSERT INTO processed_events (event_key, processed_at) VALUES (${key}, ${processedAt})`;
}

const keys = async () => (await db.queryAll<{ event_key: string }>`SELECT event_key FROM processed_events ORDER BY event_key`).map((r) => r.event_key);

test("keys counted more than the retention period ago are dropped, younger ones kept", async () => {
  await seedKey("old-1", daysAgo(keyRetentionDays + 1));
  await seedKey("old-2", daysAgo(90));
  await seedKey("young", daysAgo(keyRetentionDays - 1));
  expect(await pruneProcessedEvents()).toBe(2);
  expect(await keys()).toEqual(["young"]);
  expect(await pruneProcessedEvents()).toBe(0);
  await db.exec`DELETE FROM processed_events`;
});

test("the daily job prunes too, and a kept key still stops a second count", async () => {
  await seedKey("old-3", daysAgo(keyRetentionDays + 2));
  const at = new Date("2018-08-08T08:00:00Z");
  expect(await countOnce("7-recent", at)).toBe(true);
  await dailyReport();
  expect(await keys()).toEqual(["7-recent"]);
  expect(await countOnce("7-recent", at)).toBe(false);
  const row = await db.queryRow<{ n: number }>`SELECT urls_created AS n FROM daily_stats WHERE date = '2018-08-08'`;
  expect(row!.n).toBe(1);
});
