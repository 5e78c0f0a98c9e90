// A write of clicks that the client gives up on must not be stored later by the
// server as well as by the retry. Before the writes were transactions numbered per
// writer, a row locked for 4 s with DATABASE_QUERY_TIMEOUT_MS=1000 turned 6 answered
// clicks into 21 stored: each timed-out UPDATE committed once the lock was released,
// and so did each retry.
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, expect, test } from "vitest";
import { dropServerDatabases, startApp } from "./support/app-process.ts";
import { queryDatabase } from "./faults/query.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}exactly_`;

afterAll(async () => {
  await dropServerDatabases(prefix);
});

test("clicks answered while their row is locked past the client's query timeout are stored exactly once", async () => {
  const app = await startApp({ DATABASE_NAME_PREFIX: prefix, DATABASE_QUERY_TIMEOUT_MS: "1000", SHORTEN_LIMIT_PER_ADDRESS: "off" });
  try {
    const res = await fetch(`${app.url}/shorten`, { method: "POST", body: JSON.stringify({ url: "https://example.com/locked" }) });
    const { code } = (await res.json()) as { code: string };
    expect((await fetch(`${app.url}/${code}`, { method: "HEAD" })).status).toBe(200); // cached, no click

    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${prefix}url`;
    const locker = new pg.Client({ connectionString: url.href });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT 1 FROM urls WHERE code = $1 FOR UPDATE", [code]);
      for (let i = 0; i < 6; i++) expect((await fetch(`${app.url}/${code}`)).status).toBe(200);
      await sleep(4000); // several writes time out meanwhile, on the client or the server
      await locker.query("COMMIT");
    } finally {
      await locker.end();
    }

    const stored = async () => (await queryDatabase<{ clicks: number }>(process.env.DATABASE_URL!, `${prefix}url`, "SELECT clicks FROM urls WHERE code = $1", [code]))[0]!.clicks;
    for (const deadline = Date.now() + 10_000; (await stored()) < 6 && Date.now() < deadline; ) await sleep(100);
    await sleep(2000); // a write the server still held would land by now
    expect(await stored()).toBe(6);
    const stats = (await (await fetch(`${app.url}/${code}/stats`)).json()) as { clicks: number };
    expect(stats.clicks).toBe(6);
  } finally {
    await app.stop();
  }
}, 60_000);
