import { randomUUID } from "node:crypto";
import log from "encore.dev/log";
import { describe, expect, test, vi } from "vitest";
import { urlCache } from "../link-cache/cache";
import { urlNotifications } from "../link-cache/notifications";
import { ClickCounter } from "../../click-counter/counter";
import { clickWriter } from "../click-counting/store";
import { cleanupStaleUrls } from "../cleanup";
import { clickCounter } from "../click-counting/instance";
import { db } from "../db";
import { linkOf } from "../link-cache/lookup";
import { deleteUnclicked, removeStaleUrls } from "./remove";

/** Stores a short URL created `ageDays` ago (null: no created_at) with `clicks` clicks; returns its id. */
async function insertUrl(code: string, ageDays: number | null, clicks = 0): Promise<number> {
  const row = await db.queryRow<{ id: number }>`
    INSERT INTO urls (code, original_url, clicks, created_at)
    VALUES (${code}, ${`https://${code}.example`}, ${clicks}, now() - ${ageDays}::int * interval '1 day')
    RETURNING id`;
  return row!.id;
}

async function storedClicks(code: string): Promise<number | undefined> {
  return (await db.queryRow<{ clicks: number }>`SELECT clicks FROM urls WHERE code = ${code}`)?.clicks;
}

/** No wait for other instances' clicks: in these tests every other counter is flushed by hand. */
const now = { settleMs: 0 };

describe("cleanup of stale urls", () => {
  test("one run deletes every never-clicked url older than 90 days, and only those", async () => {
    await insertUrl("old0c0", 91);
    await insertUrl("old0c1", 400);
    await insertUrl("new0c0", 89);
    await insertUrl("old1c0", 91, 1);
    await insertUrl("new1c0", 89, 1);
    await insertUrl("null00", null);

    expect(await removeStaleUrls(now)).toBe(2);
    expect(await storedClicks("old0c0")).toBeUndefined();
    expect(await storedClicks("old0c1")).toBeUndefined();
    expect(await storedClicks("new0c0")).toBe(0);
    expect(await storedClicks("old1c0")).toBe(1);
    expect(await storedClicks("new1c0")).toBe(1);
    expect(await storedClicks("null00")).toBe(0);
    expect(await removeStaleUrls(now)).toBe(0);
  });

  test("a click another instance answered before the run began is written within the wait, and keeps its url", async () => {
    await insertUrl("other1", 91);
    // A second instance on the same database, its click not yet written when the run starts.
    const other = new ClickCounter(clickWriter(randomUUID(), 5000), 100);
    other.record("other1");
    expect(await storedClicks("other1")).toBe(0);

    expect(await removeStaleUrls({ settleMs: 500 })).toBe(0); // its flush interval, 100 ms, passes meanwhile
    expect(await storedClicks("other1")).toBe(1);
    expect(other.lostClicks).toBe(0);
  });

  test("a url whose click waits in this instance's counter is spared, and the click stored", async () => {
    await insertUrl("clickd", 91);
    clickCounter.record("clickd"); // the default interval: written later, not now
    expect(clickCounter.hasPending("clickd")).toBe(true);

    expect(await removeStaleUrls(now)).toBe(0);
    await clickCounter.flush();
    expect(await storedClicks("clickd")).toBe(1);
  });

  test("a batch never deletes a code whose clicks wait in this instance's counter", async () => {
    const id = await insertUrl("waitng", 91);
    clickCounter.record("waitng");
    const cutoff = (await db.queryRow<{ cutoff: string }>`SELECT (now() - interval '90 days')::text AS cutoff`)!.cutoff;

    expect(await deleteUnclicked([{ id, code: "waitng" }], cutoff)).toBe(0);
    await clickCounter.flush();
    expect(await storedClicks("waitng")).toBe(1);
  });

  test("a click written for a url deleted meanwhile is counted as lost and logged, not dropped silently", async () => {
    await insertUrl("gone01", 91);
    await insertUrl("kept01", 91);
    const other = new ClickCounter(clickWriter(randomUUID(), 5000), 60_000);
    for (let i = 0; i < 3; i++) other.record("gone01");
    other.record("kept01");
    const lost: number[] = [];
    other.observe({ lost: (n) => lost.push(n) });
    await db.exec`DELETE FROM urls WHERE code = 'gone01'`;
    const error = vi.spyOn(log, "error");
    try {
      await other.flush();
      expect(error).toHaveBeenCalledWith(expect.stringMatching(/^3 clicks lost/), expect.objectContaining({ clicks: 3, codes: 1 }));
    } finally {
      error.mockRestore();
    }
    expect(other.lostClicks).toBe(3);
    expect(lost).toEqual([3]);
    expect(await storedClicks("kept01")).toBe(1);
  });

  test("removed codes leave this instance's cache, so lookups find nothing", async () => {
    await urlNotifications.start();
    await insertUrl("cachd1", 91);
    expect((await linkOf("cachd1"))?.url).toBe("https://cachd1.example");
    expect(urlCache.has("cachd1")).toBe(true);

    expect(await removeStaleUrls(now)).toBe(1);
    expect(urlCache.has("cachd1")).toBe(false);
    expect(await linkOf("cachd1")).toBeUndefined();
  });

  test("a large table goes in small batches: every stale row, exactly counted, nothing else", async () => {
    // 1-5000 stale, 5001-5500 recent, 5501-6000 old but clicked. Stale rows share
    // created_at in groups of 1,000, so batches of 200 must page by id within a timestamp.
    await db.exec`
      INSERT INTO urls (code, original_url, clicks, created_at)
      SELECT 'b' || lpad(i::text, 5, '0'), 'https://bulk.example/' || i,
             CASE WHEN i > 5500 THEN 3 ELSE 0 END,
             CASE WHEN i BETWEEN 5001 AND 5500 THEN now() - interval '10 days'
                  ELSE now() - interval '91 days' - (i / 1000) * interval '1 hour' END
      FROM generate_series(1, 6000) AS i`;

    expect(await removeStaleUrls({ ...now, batchSize: 200 })).toBe(5000);
    const left = await db.queryRow<{ rows: number; clicked: number; clicks: number; first: string; last: string }>`
      SELECT count(*) AS rows, count(*) FILTER (WHERE clicks > 0) AS clicked, sum(clicks) AS clicks,
             min(code) AS first, max(code) AS last
      FROM urls WHERE code LIKE 'b%'`;
    expect(left).toEqual({ rows: 1000, clicked: 500, clicks: 1500, first: "b05001", last: "b06000" });
  });

  test("the job deletes in the run that finds the rows, and logs how many it removed", async () => {
    await insertUrl("logd01", 100);
    await insertUrl("logd02", 365);
    const info = vi.spyOn(log, "info");
    try {
      expect(await cleanupStaleUrls()).toEqual({ removed: 2 });
      expect(info).toHaveBeenCalledWith("removed 2 stale urls");
    } finally {
      info.mockRestore();
    }
    expect(await storedClicks("logd01")).toBeUndefined();
    expect(await storedClicks("logd02")).toBeUndefined();
  });
});
