import { expect, test } from "vitest";
import { daily } from "./daily";
import { db } from "./db";
import { generateReport } from "./report";
import { countOnce } from "./track";

test("events of one day counted concurrently all add up, in the daily figures and the report", async () => {
  const at = new Date("2019-03-03T12:00:00Z");
  const counted = await Promise.all(Array.from({ length: 200 }, (_, i) => countOnce(`burst-${i}`, at)));
  expect(counted.every(Boolean)).toBe(true);
  // Again, concurrently: each key counts once, whichever row its first count went to.
  expect((await Promise.all(Array.from({ length: 200 }, (_, i) => countOnce(`burst-${i}`, at)))).some(Boolean)).toBe(false);

  const rows = await db.queryRow<{ shards: number }>`SELECT count(*)::int AS shards FROM daily_stats WHERE date = '2019-03-03'`;
  expect(rows!.shards).toBeGreaterThan(1); // spread over rows, which is what keeps handlers from queueing
  expect(await daily({ from: "2019-03-02", to: "2019-03-04" })).toEqual({ days: [{ date: "2019-03-03", urlsCreated: 200 }] });
  expect((await generateReport("2019-03-03")).urlsCreated).toBe(200);
});
