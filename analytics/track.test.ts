import { expect, test } from "vitest";
import { links } from "~encore/clients";
import { isoDay } from "./dates/utc-days";
import { db } from "./db";
import "./track"; // the track-analytics subscription under test

/** Every daily_stats row of `date`, as stored. */
const rowsOf = async (date: string) =>
  db.queryAll<{ urls_created: number }>`SELECT urls_created FROM daily_stats WHERE date = ${date}::date`;

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("25 shortens leave exactly one row for today, holding 25 more", async () => {
  const day = isoDay(new Date());
  const before = (await rowsOf(day))[0]?.urls_created ?? 0;
  await Promise.all(Array.from({ length: 25 }, (_, i) => links.shorten({ url: `https://track.example/${i}` })));
  // Read as the table is meant to be read: the day's one row, no sum over rows.
  await until(async () => ((await rowsOf(day))[0]?.urls_created ?? 0) >= before + 25, "25 events counted");
  const rows = await rowsOf(day);
  expect(rows).toEqual([{ urls_created: before + 25 }]);
});
