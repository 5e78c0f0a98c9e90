// In a running app, the clicks of a workspace's links are folded from the flush's recent rows
// into the workspace's hours WORKSPACE_CLICKS_FOLD_DELAY_MS after the flush, with no cron job;
// rows left unfolded by a process that stopped wait, with nothing polling for them, until the
// next start folds them.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { queryDatabase } from "./faults/query.ts";
import { dropServerDatabases, startApp, type RunningApp } from "./support/app-process.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}fold_`;
const foldDelayMs = 500;
const env = {
  DATA_DIR: mkdtempSync(path.join(tmpdir(), "workspace-fold-")),
  DATABASE_NAME_PREFIX: prefix,
  NATS_URL: "",
  WORKSPACE_CLICKS_FOLD_DELAY_MS: String(foldDelayMs),
};

let app: RunningApp | undefined;

beforeAll(async () => {
  app = await startApp(env);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await dropServerDatabases(prefix);
});

/** One statement on the app's url database, on a connection of its own. */
const urlQuery = <T extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
  queryDatabase<T>(process.env.DATABASE_URL!, `${prefix}url`, text, values);

async function send<T>(method: string, route: string, token?: string, body?: unknown): Promise<T> {
  const res = await fetch(`${app!.url}${route}`, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${route}`).toBe(200);
  return (await res.json()) as T;
}

/** The workspace's clicks in its recent rows and in its hours ('all'). */
async function rowsOf(workspace: string): Promise<{ recent: number; hours: number }> {
  const rows = await urlQuery<{ recent: number; hours: number }>(
    `SELECT (SELECT COALESCE(sum(clicks), 0)::int FROM workspace_clicks_recent WHERE workspace_id = $1) AS recent,
            (SELECT COALESCE(sum(humans + bots), 0)::int FROM workspace_clicks_hourly WHERE workspace_id = $1 AND dimension = 'all') AS hours`,
    [workspace],
  );
  return rows[0]!;
}

test("a workspace link's clicks reach the workspace's hours a fold delay after their flush, with no cron job", async () => {
  const email = "fold@example.com";
  const password = "a password to fold with";
  await send("POST", "/users", undefined, { email, name: "Fold", age: 30, password });
  const { token } = await send<{ token: string }>("POST", "/auth/login", undefined, { email, password });
  const { userID } = await send<{ userID: string }>("GET", "/me", token);
  const { code } = await send<{ code: string }>("POST", "/shorten", token, { url: "https://example.com/folded" });
  for (let i = 0; i < 3; i++) await send("GET", `/${code}`);

  await vi.waitFor(async () => expect(await rowsOf(userID)).toEqual({ recent: 0, hours: 3 }), { timeout: 15_000, interval: 100 });
  expect(app!.output()).toContain("folded 1 rows of workspaces' recent clicks into their hours");
  const clicks = await send<{ totals: { all: number } }>("GET", "/me/clicks", token);
  expect(clicks.totals.all).toBe(3);
}, 60_000);

test("rows a stopped process left unfolded wait, with nothing polling, until the next start folds them", async () => {
  // As a process killed between its flush and its fold leaves them.
  await urlQuery(`
    INSERT INTO workspace_clicks_recent (workspace_id, hour, bot, referrer, country, browser, os, device, rule, clicks)
    VALUES ('ws-left', date_trunc('hour', now()), false, 'direct', 'GB', 'Chrome', 'Windows', 'desktop', '', 5)`);
  await new Promise((resolve) => setTimeout(resolve, 4 * foldDelayMs));
  expect(await rowsOf("ws-left")).toEqual({ recent: 5, hours: 0 });

  expect(await app!.stop()).toBe(0);
  app = await startApp(env);
  await vi.waitFor(async () => expect(await rowsOf("ws-left")).toEqual({ recent: 0, hours: 5 }), { timeout: 15_000, interval: 100 });
}, 120_000);
