// Clicks answered before a stop are all stored, even with a flush interval far away.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { dropServerDatabases, startApp } from "./support/app-process.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}stop_`;
const env = {
  DATA_DIR: mkdtempSync(path.join(tmpdir(), "url-stop-")),
  DATABASE_NAME_PREFIX: prefix,
  CLICK_FLUSH_INTERVAL_MS: "600000",
};

afterAll(() => dropServerDatabases(prefix));

test.each(["SIGTERM", "SIGINT"] as const)("a clean stop (%s) writes every answered click", async (signal) => {
  const first = await startApp(env);
  const { code } = (await (
    await fetch(`${first.url}/shorten`, { method: "POST", body: '{"url":"https://example.com/stop"}' })
  ).json()) as { code: string };
  const answered = await Promise.all(Array.from({ length: 40 }, () => fetch(`${first.url}/${code}`).then((r) => r.status)));
  expect(answered.filter((s) => s === 200)).toHaveLength(40);
  expect(await first.stop(signal)).toBe(0);

  const second = await startApp(env);
  try {
    // A fresh process has no pending clicks: this is what the database holds.
    expect(await (await fetch(`${second.url}/${code}/stats`)).json()).toMatchObject({ clicks: 40 });
  } finally {
    await second.stop();
  }
}, 120_000); // two server processes, each opening its databases
