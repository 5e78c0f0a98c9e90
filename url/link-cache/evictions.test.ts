import { randomUUID } from "node:crypto";
import pg from "pg";
import { expect, test } from "vitest";
import { cachedLink, LinkCache, urlCache } from "./cache";
import { evictionChannel } from "./evictions";
import { clickWriter } from "../click-counting/store";
import { db } from "../db";
import { linkOf } from "./lookup";
import { urlNotifications } from "./notifications";

async function insertUrl(code: string): Promise<void> {
  await db.exec`INSERT INTO urls (code, original_url) VALUES (${code}, ${`https://${code}.example`})`;
}

/** A connection of the test's own, listening on the eviction channel; returns what it heard so far. */
async function listen(): Promise<{ heard: string[]; end: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: db.connectionString });
  await client.connect();
  const heard: string[] = [];
  client.on("notification", (n) => heard.push(n.payload ?? ""));
  await client.query(`LISTEN ${evictionChannel}`);
  return { heard, end: () => client.end() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

// First in the file: no other update of urls may still be on its way to the statistics.
test("a click write sends no eviction and stays a HOT update (no index entries written)", async () => {
  await insertUrl("hotcl1");
  const { heard, end } = await listen();
  const stats = async () =>
    (await db.queryRow<{ upd: number; hot: number }>`
      SELECT n_tup_upd::int AS upd, n_tup_hot_upd::int AS hot FROM pg_stat_user_tables WHERE relname = 'urls'`)!;
  try {
    const before = await stats();
    const written = await clickWriter(randomUUID(), 5000)(new Map([["hotcl1", 3]]), 1, []);
    expect([...written.found]).toEqual(["hotcl1"]);
    // Statistics reach the view within a second or so of the commit.
    await expect.poll(async () => (await stats()).upd - before.upd, { timeout: 5000 }).toBe(1);
    expect((await stats()).hot - before.hot).toBe(1);
    await db.exec`DELETE FROM urls WHERE code = 'hotcl1'`; // this one is heard: the channel works
    await expect.poll(() => heard).toEqual(["hotcl1"]);
  } finally {
    await end();
  }
});

test("a deleted or changed link leaves the cache through the database's notification", async () => {
  await urlNotifications.start();
  expect(urlNotifications.listening).toBe(true);
  await insertUrl("evict1");
  await insertUrl("evict2");
  await linkOf("evict1");
  await linkOf("evict2");
  expect(urlCache.has("evict1") && urlCache.has("evict2")).toBe(true);

  await db.exec`DELETE FROM urls WHERE code = 'evict1'`; // as another instance, or an operator, would
  await db.exec`UPDATE urls SET original_url = 'https://changed.example' WHERE code = 'evict2'`;
  await expect.poll(() => urlCache.has("evict1") || urlCache.has("evict2")).toBe(false);
  expect((await linkOf("evict2"))?.url).toBe("https://changed.example");
});

test("a lookup that read a row before its eviction went by does not cache the stale link", () => {
  const cache = new LinkCache(10);
  cache.guard();
  const fill = cache.startFill("race01");
  cache.evict("race01"); // the delete committed while the lookup's SELECT was answering
  cache.endFill(fill, cachedLink("https://race.example"));
  expect(cache.has("race01")).toBe(false);

  const next = cache.startFill("race01");
  cache.endFill(next, cachedLink("https://race.example"));
  expect(cache.has("race01")).toBe(true);
});

test("while evictions cannot arrive nothing new is cached; once they can again, the cache starts empty", () => {
  const cache = new LinkCache(10);
  cache.guard();
  cache.endFill(cache.startFill("kept01"), cachedLink("https://kept.example"));
  const during = cache.startFill("fill01");
  cache.unguard(); // the listening connection was lost
  cache.endFill(during, cachedLink("https://fill.example"));
  cache.endFill(cache.startFill("fill02"), cachedLink("https://fill.example"));
  expect([cache.has("kept01"), cache.has("fill01"), cache.has("fill02")]).toEqual([true, false, false]);

  cache.guard(); // back: what it holds may have missed its eviction
  expect(cache.has("kept01")).toBe(false);
});

test("the listener's connection is closed for good on request, and lookups are answered without the cache", async () => {
  await insertUrl("closd1");
  await urlNotifications.close();
  expect(urlNotifications.listening).toBe(false);
  expect((await linkOf("closd1"))?.url).toBe("https://closd1.example");
  expect(urlCache.has("closd1")).toBe(false);
  await settle();
  const listening = await db.queryAll`
    SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE ${`%LISTEN ${evictionChannel};%`}`;
  expect(listening).toEqual([]);
});
