// url migration 21: each workspace link's order of magnitude of clicks, kept by triggers on
// urls, which GET /links?sort=clicks reads instead of sorting all of a workspace's links.
import { describe, expect, test } from "vitest";
import { db } from "./db";

const magnitudeOf = async (code: string) =>
  (await db.queryRow<{ magnitude: number }>`SELECT o.magnitude FROM link_click_order o JOIN urls u ON u.id = o.link_id WHERE u.code = ${code}`)?.magnitude;

describe("link_click_order", () => {
  test("click_magnitude is 0 under 16 clicks, then the bit length of clicks / 16", async () => {
    const counts = [0, 1, 15, 16, 31, 32, 63, 64, 1023, 1024, 2 ** 30 - 1, 2 ** 30, 2 ** 31 - 1, -5];
    const rows = await db.queryAll<{ m: number }>`SELECT click_magnitude(c) AS m FROM unnest(${counts}::int[]) WITH ORDINALITY AS t(c, i) ORDER BY i`;
    expect(rows.map((r) => r.m)).toEqual([0, 0, 0, 1, 1, 2, 2, 3, 6, 7, 26, 27, 27, 0]);
  });

  test("the clicks trigger's WHEN, integer arithmetic, holds exactly when the magnitude changes", async () => {
    // Every pair of small counts, and pairs around each power of two up to 2^30.
    const row = await db.queryRow<{ wrong: number; pairs: number }>`
      WITH pairs AS (
        SELECT a, b FROM generate_series(0, 400) AS a, generate_series(0, 400) AS b
        UNION ALL
        SELECT a, b FROM generate_series(1, 30) AS k,
          LATERAL (VALUES ((1 << k) - 2), ((1 << k) - 1), (1 << k), ((1 << k) + 1)) AS x(a),
          LATERAL (VALUES (a + 1), (a + 2), (a + 1000), (((1 << k) - 1) * 2 + 1)) AS y(b)
        WHERE b > 0
      )
      SELECT count(*) FILTER (WHERE (((a >> 4) # (b >> 4)) > least(a >> 4, b >> 4)) <> (click_magnitude(a) <> click_magnitude(b)))::int AS wrong,
             count(*)::int AS pairs
      FROM pairs`;
    expect(row).toEqual({ wrong: 0, pairs: expect.any(Number) });
    expect(row!.pairs).toBeGreaterThan(160_000);
  });

  test("a workspace link has its row from its insert to its delete, its magnitude following its clicks; an anonymous link none", async () => {
    await db.exec`INSERT INTO urls (code, original_url, workspace_id, clicks) VALUES ('lco01', 'https://example.com/', 'lco-ws', 40), ('lco02', 'https://example.com/', NULL, 0)`;
    expect(await magnitudeOf("lco01")).toBe(2);
    expect(await magnitudeOf("lco02")).toBeUndefined();
    for (const [clicks, magnitude] of [[15, 0], [16, 1], [31, 1], [32, 2], [100, 3], [100_000, 13]] as const) {
      await db.exec`UPDATE urls SET clicks = ${clicks} WHERE code = 'lco01'`;
      expect(await magnitudeOf("lco01"), `${clicks} clicks`).toBe(magnitude);
    }
    await db.exec`UPDATE urls SET clicks = 3 WHERE code = 'lco01'`; // down, as no flush does, still kept
    expect(await magnitudeOf("lco01")).toBe(0);
    await db.exec`DELETE FROM urls WHERE code IN ('lco01', 'lco02')`;
    expect(await db.queryAll`SELECT * FROM link_click_order WHERE workspace_id = 'lco-ws'`).toEqual([]);
  });
});
