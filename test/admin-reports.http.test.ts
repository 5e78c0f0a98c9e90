// The administrators' lists over HTTP (every account, every link, the queue of reported
// links) and the public report form's endpoint: what each finds, who is refused (signed out
// 401, anyone not an administrator 403, an administrator's API key 403), the limit per
// address, and resolving reports into the audit log.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiCaller, signUpAndLogIn, type Call, type Reply } from "./support/api-client.ts";
import { dropServerDatabases, startApp, type RunningApp } from "./support/app-process.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}adminrep_`;
const adminEmail = "boss@example.com";
const env = (adminEmails: string) => ({
  DATA_DIR: mkdtempSync(path.join(tmpdir(), "admin-reports-")),
  DATABASE_NAME_PREFIX: prefix,
  NATS_URL: "",
  JWTSecret: "admin-reports-test-secret-".repeat(3),
  ADMIN_EMAILS: adminEmails,
  // The client's address is X-Forwarded-For's last entry, so each test picks its own.
  TRUST_PROXY: "on",
  REPORT_LIMIT_PER_ADDRESS: "3",
});

let app: RunningApp;
let call: Call;
let admin: { userID: string; token: string };
let user: { userID: string; token: string };
let adminKey: string;

beforeAll(async () => {
  const setup = await startApp(env(""));
  const { userID } = await signUpAndLogIn(apiCaller(() => setup.url), adminEmail, { name: "The Boss" });
  await setup.stop();
  app = await startApp(env(adminEmail));
  call = apiCaller(() => app.url);
  const login = await call("POST", "/auth/login", { body: { email: adminEmail, password: "correct horse battery" } });
  admin = { userID, token: login.body.token as string };
  user = await signUpAndLogIn(call, "Carol.Spammer@example.com", { name: "Carol" });
  const key = await call("POST", "/me/api-keys", { body: { name: "admin's script" }, token: admin.token });
  adminKey = key.body.key as string;
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await dropServerDatabases(prefix);
});

const asAdmin = (method: string, route: string, body?: unknown): Promise<Reply> => call(method, route, { body, token: admin.token });

async function shorten(url: string, token?: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await call("POST", "/shorten", { body: { url, ...extra }, token, headers: { "x-forwarded-for": "10.9.9.9" } });
  expect(res.status).toBe(200);
  return res.body.code as string;
}

const report = (code: string, from: string, body: Record<string, unknown> = {}) =>
  call("POST", "/reports", { body: { code, reason: "phishing", ...body }, headers: { "x-forwarded-for": from } });

describe("who may use the admin lists", () => {
  const routes: Array<[string, string]> = [
    ["GET", "/admin/users"],
    ["GET", "/admin/links"],
    ["GET", "/admin/reports"],
    ["POST", "/admin/reports/nope12/dismiss"],
    ["POST", "/admin/reports/nope12/disable"],
  ];
  test.each(routes)("%s %s: signed out 401, a user 403, an administrator's API key 403", async (method, route) => {
    expect((await call(method, route, { body: method === "POST" ? {} : undefined })).status).toBe(401);
    const asUser = await call(method, route, { body: method === "POST" ? {} : undefined, token: user.token });
    expect([asUser.status, asUser.body.code]).toEqual([403, "permission_denied"]);
    const asKey = await call(method, route, { body: method === "POST" ? {} : undefined, token: adminKey });
    expect(asKey.status).toBe(403);
    expect(asKey.body.message).toMatch(/API key cannot act as an administrator/);
  });

  test("GET /me says who is an administrator, and that a key never acts as one", async () => {
    expect((await call("GET", "/me")).status).toBe(401);
    expect((await call("GET", "/me", { token: admin.token })).body).toEqual({ userID: admin.userID, email: adminEmail, admin: true });
    expect((await call("GET", "/me", { token: user.token })).body.admin).toBe(false);
    expect((await call("GET", "/me", { token: adminKey })).body.admin).toBe(false);
  });
});

describe("GET /admin/users", () => {
  test("searches every account by email or name in any case, % plain, with its links counted", async () => {
    await shorten("https://carol.example/a", user.token);
    await shorten("https://carol.example/b", user.token);
    const found = await asAdmin("GET", "/admin/users?q=SPAMMER");
    expect(found.status).toBe(200);
    const users = found.body.users as Array<Record<string, unknown>>;
    expect(users.map((u) => [u.email, u.name, u.links, u.admin, u.disabledAt])).toEqual([["Carol.Spammer@example.com", "Carol", 2, false, undefined]]);
    expect(((await asAdmin("GET", "/admin/users?q=boss")).body.users as Array<{ admin: boolean }>).map((u) => u.admin)).toEqual([true]);
    expect((await asAdmin("GET", "/admin/users?q=%25")).body.users).toEqual([]);
  });

  test("pages newest first, and filters disabled accounts", async () => {
    const first = await asAdmin("GET", "/admin/users?limit=1");
    expect((first.body.users as Array<{ email: string }>).map((u) => u.email)).toEqual(["Carol.Spammer@example.com"]);
    const second = await asAdmin("GET", `/admin/users?limit=1&cursor=${first.body.nextCursor as string}`);
    expect((second.body.users as Array<{ email: string }>).map((u) => u.email)).toEqual([adminEmail]);
    expect(second.body.nextCursor).toBeUndefined();
    expect((await asAdmin("GET", "/admin/users?cursor=nonsense")).status).toBe(400);
    expect((await asAdmin("GET", "/admin/users?status=disabled")).body.users).toEqual([]);
  });
});

describe("GET /admin/links", () => {
  test("lists every link, anonymous and every account's, filtered by host with its subdomains, creator and status", async () => {
    const anonymous = await shorten("https://www.bad.example/login");
    const owned = await shorten("https://bad.example/x", user.token, { title: "Free 100% prize" });
    const other = await shorten("https://notbad.example/");
    const codes = async (query: string) => {
      const res = await asAdmin("GET", `/admin/links?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.links as Array<{ code: string }>).map((l) => l.code);
    };
    expect(await codes("host=BAD.example")).toEqual([owned, anonymous]);
    expect(await codes("host=notbad.example")).toEqual([other]);
    expect(await codes("q=100%25 PRIZE")).toEqual([owned]);
    // The URL and the title are searched one by one: a text spanning both matches neither.
    expect(await codes(`q=${encodeURIComponent("/x\nFree")}`)).toEqual([]);
    expect(await codes(`creator=${encodeURIComponent("carol.spammer@EXAMPLE.com")}&host=bad.example`)).toEqual([owned]);
    expect(await codes(`creator=${user.userID}&host=bad.example`)).toEqual([owned]);
    expect(await codes("creator=nobody@example.com")).toEqual([]);
    const listed = (await asAdmin("GET", `/admin/links?q=${owned}`)).body.links as Array<Record<string, unknown>>;
    expect(listed[0]).toMatchObject({ code: owned, createdBy: user.userID, creatorEmail: "Carol.Spammer@example.com", openReports: 0, status: "active" });
    expect((await asAdmin("POST", `/admin/links/${other}/disable`, {})).status).toBe(200);
    expect(await codes("status=disabled")).toEqual([other]);
    expect(((await asAdmin("GET", `/admin/links?q=${other}`)).body.links as Array<Record<string, unknown>>)[0]).toMatchObject({ status: "disabled", disabledReason: "abuse" });
    expect((await asAdmin("GET", "/admin/links?host=a/b")).status).toBe(400);
  });

  test("pages through every link newest first with its cursor; another sort's cursor is 400", async () => {
    const first = await asAdmin("GET", "/admin/links?limit=2");
    const second = await asAdmin("GET", `/admin/links?limit=2&cursor=${first.body.nextCursor as string}`);
    const all = await asAdmin("GET", "/admin/links?limit=100");
    const ids = (r: Reply) => (r.body.links as Array<{ code: string }>).map((l) => l.code);
    expect([...ids(first), ...ids(second)]).toEqual(ids(all).slice(0, 4));
    expect((await asAdmin("GET", `/admin/links?sort=clicks&cursor=${first.body.nextCursor as string}`)).status).toBe(400);
  });
});

describe("reports", () => {
  test("a visitor reports a link; the same address again counts once; the queue groups by link", async () => {
    const code = await shorten("https://phish.example/bank");
    const first = await report(code.toUpperCase(), "203.0.113.1", { details: "asks for my bank password", email: "me@example.com" });
    expect(first.status).toBe(200);
    const again = await report(code, "203.0.113.1", { reason: "spam" });
    expect(again.body.id).toBe(first.body.id);
    expect((await report(code, "203.0.113.2", { reason: "spam" })).status).toBe(200);
    const queue = await asAdmin("GET", "/admin/reports");
    const entry = (queue.body.links as Array<Record<string, unknown>>).find((l) => l.code === code)!;
    expect(entry).toMatchObject({ originalUrl: "https://phish.example/bank", status: "active", reports: 2 });
    expect(entry.reasons).toEqual([
      { reason: "phishing", count: 1 },
      { reason: "spam", count: 1 },
    ]);
    expect((entry.latest as Array<Record<string, unknown>>)[1]).toMatchObject({ reason: "phishing", details: "asks for my bank password", email: "me@example.com" });
    const reported = (await asAdmin("GET", "/admin/links?reported=true")).body.links as Array<{ code: string; openReports: number }>;
    expect(reported.map((l) => [l.code, l.openReports])).toContainEqual([code, 2]);
    const mostReported = await asAdmin("GET", "/admin/links?sort=reports&limit=1");
    expect((mostReported.body.links as Array<{ code: string }>).map((l) => l.code)).toEqual([code]);
    const newest = await asAdmin("GET", "/admin/links?limit=1");
    const mixed = await asAdmin("GET", `/admin/links?sort=reports&cursor=${newest.body.nextCursor as string}`);
    expect([mixed.status, mixed.body.message]).toEqual([400, "cursor is from a list sorted by newest, not by reports"]);
  });

  test("bad input is 400 naming the field; an unknown, deleted or disabled link 404", async () => {
    const code = await shorten("https://fine.example/");
    expect((await report(code, "198.51.100.7", { reason: "boring" })).status).toBe(400);
    const long = await report(code, "198.51.100.7", { details: "x".repeat(1001) });
    expect([long.status, long.body.message]).toEqual([400, expect.stringMatching(/details/)]);
    expect((await report("nope99", "198.51.100.7")).status).toBe(404);
    const mine = await shorten("https://mine.example/", user.token);
    expect((await call("DELETE", `/links/${mine}`, { token: user.token })).status).toBe(200);
    expect((await report(mine, "198.51.100.7")).body).toMatchObject({ code: "not_found", message: "link deleted" });
  });

  test("an address past its reports an hour is 429 with Retry-After; another address is not", async () => {
    const codes = await Promise.all(["a", "b", "c", "d"].map((p) => shorten(`https://many.example/${p}`)));
    for (const code of codes.slice(0, 3)) expect((await report(code, "192.0.2.50")).status).toBe(200);
    const refused = await call("POST", "/reports", { body: { code: codes[3], reason: "spam" }, headers: { "x-forwarded-for": "192.0.2.50" } });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/too many reports from this address/);
    // A repeat of an open report is answered still: it adds nothing.
    expect((await report(codes[0]!, "192.0.2.50")).status).toBe(200);
    expect((await report(codes[3]!, "192.0.2.51")).status).toBe(200);
  });

  test("dismissing and upholding close a link's reports, into the audit log; the disabling goes the usual way", async () => {
    const spam = await shorten("https://spam.example/");
    const ok = await shorten("https://ok.example/");
    await report(spam, "203.0.113.9", { reason: "spam" });
    await report(ok, "203.0.113.9", { reason: "other" });
    const dismissed = await asAdmin("POST", `/admin/reports/${ok}/dismiss`, { reason: "fine" });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toMatchObject({ reports: 1, links: 0, actions: [{ action: "dismiss_reports", target: ok, reason: "fine" }] });
    expect((await asAdmin("POST", `/admin/reports/${ok}/dismiss`, {})).status).toBe(404);
    expect((await call("GET", `/${ok}`)).status).toBe(200);
    const upheld = await asAdmin("POST", `/admin/reports/${spam}/disable`, { reason: "spam run" });
    expect(upheld.body).toMatchObject({ reports: 1, links: 1, actions: [{ action: "disable_link", target: spam }, { action: "uphold_reports", target: spam }] });
    expect((await call("GET", `/${spam}`)).body.message).toBe("link disabled for abuse");
    const open = (await asAdmin("GET", "/admin/reports")).body.links as Array<{ code: string }>;
    expect(open.map((l) => l.code)).not.toContain(spam);
    const resolved = (await asAdmin("GET", "/admin/reports?status=resolved")).body.links as Array<Record<string, unknown>>;
    expect(resolved.slice(0, 2).map((l) => [l.code, l.resolution, l.resolvedBy])).toEqual([
      [spam, "disabled", admin.userID],
      [ok, "dismissed", admin.userID],
    ]);
    const log = (await asAdmin("GET", "/admin/actions?limit=3")).body.actions as Array<{ action: string }>;
    expect(log.map((a) => a.action)).toEqual(["uphold_reports", "disable_link", "dismiss_reports"]);
    // The same address may report the link again once its report is resolved.
    expect((await report(ok, "203.0.113.9")).status).toBe(200);
    expect((await asAdmin("POST", `/admin/reports/nope12/disable`, {})).status).toBe(404);
  });
});
