// Two instances of the app on one database: a link one of them has cached stops
// redirecting there once its row is deleted, whoever deletes it
// (the cleanup job, SQL typed by hand), and a changed URL is answered at once. The
// eviction comes through PostgreSQL LISTEN/NOTIFY; a lost listening connection is
// opened again, and the cache cleared, since evictions were missed meanwhile. The same
// holds for a link its owner changes or deletes through one instance's API (/links/:code),
// whichever option a lookup answers by changes (URL, end date, click budget, password);
// a link marked deleted answers so everywhere, and a click budget holds across instances.
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { appRoot } from "../runtime/internal/config/app-root.ts";
import { apiCaller, signUpAndLogIn } from "./support/api-client.ts";
import { startTwoInstances, type RunningApp, type TwoInstances } from "./support/app-process.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}evict_`;
const env = (name: string) => ({
  DATA_DIR: mkdtempSync(path.join(tmpdir(), "url-evict-")),
  DATABASE_NAME_PREFIX: prefix,
  NATS_URL: "",
  // Each instance's connections tell which one they are.
  PGAPPNAME: name,
});

let a: RunningApp;
let b: RunningApp;
let sql: pg.Client;
let instances: TwoInstances | undefined;

beforeAll(async () => {
  instances = await startTwoInstances((name) => env(`evict-${name}`), "url");
  ({ a, b, sql } = instances);
}, 120_000);

afterAll(() => instances?.close());

async function shorten(url: string): Promise<string> {
  const res = await fetch(`${a.url}/shorten`, { method: "POST", body: JSON.stringify({ url }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { code: string }).code;
}

/** What `app` answers for the code: the status, and the URL when found. A HEAD caches a link without counting a click. */
async function lookUp(app: RunningApp, code: string, method: "GET" | "HEAD" = "GET"): Promise<string> {
  const res = await fetch(`${app.url}/${code}`, { method });
  if (method === "HEAD" || res.status !== 200) return String(res.status);
  return ((await res.json()) as { url: string }).url;
}

/**
 * How long a test waits for an instance to learn of a change: a guard against a hang, not a
 * speed target. Cached links never expire, so any change at all proves the eviction came by
 * notification; on a loaded machine it takes longer than on a quiet one, and how fast it
 * comes is for a benchmark to measure, not a test.
 */
const evictionDeadlineMs = 10_000;

/** Milliseconds until `app` answers `expected` for the code, polling; fails past `limitMs`. */
async function untilAnswer(app: RunningApp, code: string, expected: string, limitMs = evictionDeadlineMs): Promise<number> {
  const started = Date.now();
  let last = "";
  while (Date.now() - started <= limitMs) {
    last = await lookUp(app, code);
    if (last === expected) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${code} still answered ${last}, not ${expected}, after ${limitMs} ms`);
}

/**
 * What `app` answers a GET of the code with (`password` in X-Link-Password): the URL when
 * it redirects, else the status and the error's message.
 */
async function answerOf(app: RunningApp, code: string, password?: string): Promise<string> {
  const res = await fetch(`${app.url}/${code}`, { headers: password === undefined ? {} : { "x-link-password": password } });
  const body = (await res.json()) as { url?: string; message?: string };
  return res.status === 200 ? body.url! : `${res.status} ${body.message}`;
}

/** Milliseconds until `app` answers `expected` (answerOf) for the code, polling; fails past `limitMs`. */
async function untilAnswerOf(app: RunningApp, code: string, expected: string, limitMs = evictionDeadlineMs, password?: string): Promise<number> {
  const started = Date.now();
  let last = "";
  while (Date.now() - started <= limitMs) {
    last = await answerOf(app, code, password);
    if (last === expected) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${code} still answered ${last}, not ${expected}, after ${limitMs} ms`);
}

/** The pid of the backend on which `app` listens for evictions, once it listens. */
async function listenerPid(name: string): Promise<number> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    const { rows } = await sql.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2 AND query LIKE '%LISTEN url_cache_evict;%'",
      [`${prefix}url`, name],
    );
    if (rows.length === 1) return rows[0]!.pid;
  }
  throw new Error(`${name} is not listening for evictions`);
}

/** Both instances hold the link in their cache: a HEAD looks it up without counting a click. */
async function cachedOnBoth(code: string): Promise<void> {
  expect(await lookUp(a, code, "HEAD")).toBe("200");
  expect(await lookUp(b, code, "HEAD")).toBe("200");
}

test("a link deleted by SQL typed by hand stops redirecting on every instance", async () => {
  const code = await shorten("https://evict.example/by-hand");
  await cachedOnBoth(code);
  await sql.query("DELETE FROM urls WHERE code = $1", [code]);
  await untilAnswer(b, code, "404");
  await untilAnswer(a, code, "404");
});

test("a link deleted by the cleanup job, run as a process of its own, stops redirecting on the instances that cached it", async () => {
  const stale = await shorten("https://evict.example/stale");
  const kept = await shorten("https://evict.example/kept");
  await sql.query("UPDATE urls SET created_at = now() - interval '91 days' WHERE code = ANY($1)", [[stale, kept]]);
  await cachedOnBoth(stale);
  expect(await lookUp(a, kept)).toBe("https://evict.example/kept"); // clicked once: not stale

  const run = await new Promise<{ code: number; stdout: string }>((resolve) =>
    execFile("npm", ["run", "--silent", "cron", "--", "cleanup-stale-urls"], { cwd: appRoot, env: { ...process.env, ...env("evict-cron") } }, (err, stdout) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout }),
    ),
  );
  expect(run.stdout).toContain('{"removed":1}');
  expect(run.code).toBe(0);
  await untilAnswer(b, stale, "404");
  await untilAnswer(a, stale, "404");
  expect(await lookUp(b, kept)).toBe("https://evict.example/kept");
}, 60_000);

test("a link whose URL changes answers the new URL on every instance", async () => {
  const code = await shorten("https://evict.example/before");
  await cachedOnBoth(code);
  await sql.query("UPDATE urls SET original_url = 'https://evict.example/after' WHERE code = $1", [code]);
  await untilAnswer(b, code, "https://evict.example/after");
  await untilAnswer(a, code, "https://evict.example/after");
});

test("a lost listening connection is opened again, and the cache cleared of what it may have missed", async () => {
  const missed = await shorten("https://evict.example/missed");
  const later = await shorten("https://evict.example/later");
  await cachedOnBoth(missed);
  await cachedOnBoth(later);
  const before = await listenerPid("evict-b");

  // A deletion whose eviction never reaches anyone (triggers off in this session), as if sent while b was not listening.
  await sql.query("SET session_replication_role = replica");
  await sql.query("DELETE FROM urls WHERE code = $1", [missed]);
  await sql.query("RESET session_replication_role");
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await lookUp(b, missed, "HEAD")).toBe("200"); // stale: nothing told b

  await sql.query("SELECT pg_terminate_backend($1)", [before]);
  const after = await listenerPid("evict-b").then(async function again(pid): Promise<number> {
    return pid === before ? listenerPid("evict-b").then(again) : pid;
  });
  expect(after).not.toBe(before);
  // Back: the cache was cleared, so the missed deletion shows, and evictions arrive again.
  await untilAnswer(b, missed, "404");
  expect(await lookUp(b, later, "HEAD")).toBe("200");
  await sql.query("DELETE FROM urls WHERE code = $1", [later]);
  await untilAnswer(b, later, "404");
  expect(b.output()).toMatch(/listening for cache evictions and domain changes failed/);
  expect(b.output()).toMatch(/listening for cache evictions and domain changes again/);
}, 60_000);

describe("links changed by their owner through the API of another instance", () => {
  const callA = apiCaller(() => a.url);
  let token: string;
  beforeAll(async () => {
    token = (await signUpAndLogIn(callA, "owner@evict.example")).token;
  });

  async function ownLink(url: string, options: { maxClicks?: number; password?: string } = {}): Promise<string> {
    const res = await callA("POST", "/shorten", { token, body: { url, ...options } });
    expect(res.status).toBe(200);
    return res.body.code as string;
  }

  async function patchOnA(code: string, body: Record<string, unknown>): Promise<void> {
    expect(await callA("PATCH", `/links/${code}`, { token, body })).toMatchObject({ status: 200 });
  }

  test("PATCH of the URL on A: B, which cached the link, answers the new URL", async () => {
    const code = await ownLink("https://evict.example/patch-before");
    await cachedOnBoth(code);
    expect(await callA("PATCH", `/links/${code}`, { token, body: { url: "https://evict.example/patch-after" } })).toMatchObject({ status: 200 });
    await untilAnswer(b, code, "https://evict.example/patch-after");
  });

  test("PATCH of expiresAt on A: B, which cached the link without an end date, answers 'link expired' once the new one passes", async () => {
    const url = "https://evict.example/expiry-set";
    const code = await ownLink(url);
    expect(await answerOf(b, code)).toBe(url);
    // Far enough ahead for the PATCH to arrive before it on a busy machine: it must be in the future.
    const expiresAt = Date.now() + 5000;
    await patchOnA(code, { expiresAt: new Date(expiresAt).toISOString() });
    await untilAnswerOf(b, code, "404 link expired", expiresAt - Date.now() + evictionDeadlineMs);
  });

  test("PATCH of expiresAt to null on A: B, which cached the link as expired, redirects again", async () => {
    const url = "https://evict.example/expiry-cleared";
    const code = await ownLink(url);
    await sql.query("UPDATE urls SET expires_at = now() - interval '1 minute' WHERE code = $1", [code]);
    await untilAnswerOf(b, code, "404 link expired");
    await patchOnA(code, { expiresAt: null });
    await untilAnswerOf(b, code, url);
  });

  test("PATCH of maxClicks on A to the clicks made: B, which cached the link without a budget, answers it spent", async () => {
    const code = await ownLink("https://evict.example/budget-set");
    expect(await lookUp(a, code)).toBe("https://evict.example/budget-set");
    expect(await lookUp(a, code)).toBe("https://evict.example/budget-set");
    const stored = async () => (await sql.query<{ clicks: number }>("SELECT clicks FROM urls WHERE code = $1", [code])).rows[0]!.clicks;
    await expect.poll(stored, { timeout: 10_000 }).toBe(2); // A's counter writes its clicks in a later batch
    expect(await lookUp(b, code, "HEAD")).toBe("200");
    await patchOnA(code, { maxClicks: 2 });
    // HEAD counts nothing, so only the cache tells the two answers apart.
    await untilAnswer(b, code, "404");
    expect(await answerOf(b, code)).toBe("404 link reached its maximum number of clicks");
    expect(await stored()).toBe(2);
  });

  test("PATCH of maxClicks on A above the clicks made: B, which cached the budget as spent, redirects once more", async () => {
    const url = "https://evict.example/budget-raised";
    const code = await ownLink(url, { maxClicks: 1 });
    expect(await answerOf(b, code)).toBe(url);
    expect(await answerOf(b, code)).toBe("404 link reached its maximum number of clicks");
    await patchOnA(code, { maxClicks: 2 });
    await untilAnswerOf(b, code, url);
    expect(await answerOf(b, code)).toBe("404 link reached its maximum number of clicks");
  });

  test("PATCH of a password on A: B, which cached the link without one, asks for it", async () => {
    const url = "https://evict.example/password-set";
    const code = await ownLink(url);
    expect(await lookUp(b, code, "HEAD")).toBe("200");
    await patchOnA(code, { password: "opensesame" });
    await untilAnswerOf(b, code, "401 this link needs a password: send it in the X-Link-Password header");
    expect(await answerOf(b, code, "opensesame")).toBe(url);
  });

  test("PATCH of the password to null on A: B, which cached the link with one, redirects without it", async () => {
    const url = "https://evict.example/password-cleared";
    const code = await ownLink(url, { password: "opensesame" });
    expect(await answerOf(b, code)).toBe("401 this link needs a password: send it in the X-Link-Password header");
    await patchOnA(code, { password: null });
    await untilAnswerOf(b, code, url);
  });

  test("PATCH of another password on A: B, which cached the link with the old one, refuses the old one and takes the new", async () => {
    const url = "https://evict.example/password-changed";
    const code = await ownLink(url, { password: "old-password" });
    expect(await answerOf(b, code, "old-password")).toBe(url);
    await patchOnA(code, { password: "new-password" });
    // Polled with the old password: right until the eviction, then one wrong guess, far from the guessing limit.
    await untilAnswerOf(b, code, "401 wrong password", evictionDeadlineMs, "old-password");
    expect(await answerOf(b, code, "new-password")).toBe(url);
  });

  test("DELETE on A: the row is marked deleted and its code retired", async () => {
    const code = await ownLink("https://evict.example/delete-row");
    expect((await callA("DELETE", `/links/${code}`, { token })).status).toBe(200);
    const { rows } = await sql.query("SELECT deleted_at IS NOT NULL AS deleted, EXISTS (SELECT 1 FROM retired_codes r WHERE r.code = u.code) AS retired FROM urls u WHERE code = $1", [code]);
    expect(rows).toEqual([{ deleted: true, retired: true }]);
  });

  test("DELETE on A: B, which cached the link, stops redirecting", async () => {
    const code = await ownLink("https://evict.example/delete-before");
    await cachedOnBoth(code);
    expect((await callA("DELETE", `/links/${code}`, { token })).status).toBe(200);
    await untilAnswer(b, code, "404");
  });
});

test("a link deleted by its owner (deleted_at set) answers 'link deleted' on every instance that cached it", async () => {
  const code = await shorten("https://deleted-mark.example");
  await cachedOnBoth(code);
  await sql.query("UPDATE urls SET deleted_at = now() WHERE code = $1", [code]);
  for (const app of [a, b]) {
    await expect.poll(async () => (await (await fetch(`${app.url}/${code}`)).json()) as unknown).toEqual({
      code: "not_found",
      message: "link deleted",
      details: null,
    });
  }
});

test("a disabled link whose reason alone changes (SQL by hand) answers the new reason on every instance that cached it", async () => {
  const code = await shorten("https://disabled-reason.example");
  await sql.query("UPDATE urls SET disabled_at = now(), disabled_reason = 'abuse' WHERE code = $1", [code]);
  for (const app of [a, b]) await untilAnswerOf(app, code, "404 link disabled for abuse");
  await sql.query("UPDATE urls SET disabled_reason = 'account' WHERE code = $1", [code]);
  for (const app of [a, b]) await untilAnswerOf(app, code, "404 link disabled");
});

test("a click budget holds exactly across instances: 80 GETs at once over both, maxClicks 10, 10 redirect and 10 are stored", async () => {
  const res = await fetch(`${a.url}/shorten`, { method: "POST", body: JSON.stringify({ url: "https://budget.example", maxClicks: 10 }) });
  const { code } = (await res.json()) as { code: string };
  const statuses = await Promise.all(Array.from({ length: 80 }, (_, i) => fetch(`${(i % 2 ? a : b).url}/${code}`).then((r) => r.status)));
  expect(statuses.filter((s) => s === 200)).toHaveLength(10);
  expect(statuses.filter((s) => s === 404)).toHaveLength(70);
  const { rows } = await sql.query<{ clicks: number }>("SELECT clicks FROM urls WHERE code = $1", [code]);
  expect(rows[0]!.clicks).toBe(10);
});
