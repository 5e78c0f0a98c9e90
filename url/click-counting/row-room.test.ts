import { randomUUID } from "node:crypto";
import { expect, test } from "vitest";
import { db } from "../db";
import { clickWriter } from "./store";

/** The page of the table that holds the link's row now. */
async function pageOf(code: string): Promise<number> {
  const row = await db.queryRow<{ page: string }>`SELECT (ctid::text::point)[0]::bigint::text AS page FROM urls WHERE code = ${code}`;
  return Number(row!.page);
}

test("a link's first click leaves its row on its page, among links written together (room for HOT updates, url migration 22)", async () => {
  // Enough links in one statement to fill several pages as far as the table lets them.
  await db.exec`
    INSERT INTO urls (code, original_url)
    SELECT 'room' || lpad(i::text, 4, '0'), 'https://example.com/a-long-enough-target-url/' || i FROM generate_series(1, 400) AS i`;
  const codes = ["room0001", "room0100", "room0200"];
  const before = await Promise.all(codes.map(pageOf));
  const write = clickWriter(randomUUID(), 5000);
  await write(new Map(codes.map((c) => [c, 1])), 1, []);
  expect(await Promise.all(codes.map(pageOf))).toEqual(before);
  const clicks = await db.queryAll<{ clicks: number }>`SELECT clicks FROM urls WHERE code = ANY(${codes}) ORDER BY code`;
  expect(clicks.map((r) => r.clicks)).toEqual([1, 1, 1]);
});
