import { describe, expect, test } from "vitest";
import { db } from "./db";
import { prune, retentionDays } from "./prune";

describe("the prune cron job's endpoint", () => {
  test("deletes readings past the retention period and keeps the recent ones", async () => {
    await db.exec`
      INSERT INTO readings (sensor, value, recorded_at) VALUES
        ('old', 1, now() - make_interval(days => ${retentionDays + 1})),
        ('recent', 2, now() - make_interval(days => ${retentionDays - 1}))`;
    expect(await prune()).toEqual({ deleted: 1 });
    const left = await db.queryAll<{ sensor: string }>`SELECT sensor FROM readings WHERE sensor IN ('old', 'recent')`;
    expect(left.map((r) => r.sensor)).toEqual(["recent"]);
  });
});
