import { expect, test } from "vitest";
import { daily } from "../daily";
import { db } from "../db";
import { generateReport } from "../reports/stored-reports";
import { countOnce } from "./count-once";

/** Every daily_stats row of `date`, as stored. */
const rowsOf = async (date: string) =>
  db.queryAll<{ urls_created: number }>`SELECT urls_created FROM daily_stats WHERE date = ${date}::date`;

test("200 concurrent deliveries with duplicates count exactly once each, in the day's one row", async () => {
  const at = new Date("2019-03-03T12:00:00Z");
  // 200 distinct events, each delivered twice at once: 400 concurrent calls.
  const keys = Array.from({ length: 200 }, (_, i) => `burst-${i}`);
  const counted = await Promise.all([...keys, ...[...keys].reverse()].map((key) => countOnce(key, at)));
  expect(counted.filter(Boolean)).toHaveLength(200);
  keys.forEach((key, i) => expect([counted[i], counted[399 - i]].filter(Boolean), key).toHaveLength(1));
  // Again, concurrently: each key was counted already.
  expect((await Promise.all(keys.map((key) => countOnce(key, at)))).some(Boolean)).toBe(false);

  expect(await rowsOf("2019-03-03")).toEqual([{ urls_created: 200 }]);
  expect(await daily({ from: "2019-03-02", to: "2019-03-04" })).toEqual({ days: [{ date: "2019-03-03", urlsCreated: 200 }] });
  expect((await generateReport("2019-03-03")).urlsCreated).toBe(200);
});

test("events of several days in one batch each go to their own day's row", async () => {
  const days = ["2019-04-02", "2019-04-01", "2019-04-03"];
  const counted = await Promise.all(
    Array.from({ length: 90 }, (_, i) => countOnce(`days-${i}`, new Date(`${days[i % 3]}T23:59:59.999Z`))),
  );
  expect(counted.every(Boolean)).toBe(true);
  for (const day of days) expect(await rowsOf(day)).toEqual([{ urls_created: 30 }]);
});

test("a failed batch fails every delivery in it and counts none of them; a redelivery counts them", async () => {
  const at = new Date("2019-06-06T06:00:00Z");
  // Refuses the day's row for a moment, as a database error would.
  await db.exec`ALTER TABLE daily_stats ADD CONSTRAINT refuse_june CHECK (date <> '2019-06-06')`;
  try {
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => countOnce(`failed-${i}`, at)));
    expect(outcomes.every((o) => o.status === "rejected")).toBe(true);
  } finally {
    await db.exec`ALTER TABLE daily_stats DROP CONSTRAINT refuse_june`;
  }
  const keys = await db.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM processed_events WHERE event_key LIKE 'failed-%'`;
  expect(keys!.n).toBe(0);
  expect(await rowsOf("2019-06-06")).toEqual([]);

  expect((await Promise.all(Array.from({ length: 50 }, (_, i) => countOnce(`failed-${i}`, at)))).every(Boolean)).toBe(true);
  expect(await rowsOf("2019-06-06")).toEqual([{ urls_created: 50 }]);
});

test("an event without a usable timestamp fails alone, not the events written with it", async () => {
  const at = new Date("2019-07-07T07:00:00Z");
  const outcomes = await Promise.allSettled([
    countOnce("fine-1", at),
    countOnce("broken", new Date("not a date")),
    countOnce("fine-2", at),
  ]);
  expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  expect(await rowsOf("2019-07-07")).toEqual([{ urls_created: 2 }]);
});
