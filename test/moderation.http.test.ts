// Moderation over HTTP, on two instances of the app sharing one database: what an
// administrator (ADMIN_EMAILS) does to a link, a host or an account holds on both at
// once, anyone else is refused, and every action is in the audit log.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiCaller, signUpAndLogIn, type Call, type Reply } from "./support/api-client.ts";
import { dropServerDatabases, startApp, type RunningApp } from "./support/app-process.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}mod_`;
const adminEmail = "Admin@Example.com";
const env = (adminEmails: string) => ({
  DATA_DIR: mkdtempSync(path.join(tmpdir(), "moderation-")),
  DATABASE_NAME_PREFIX: prefix,
  NATS_URL: "",
  // One key for every instance, as in production: a token from one is good on the other.
  JWTSecret: "moderation-test-secret-".repeat(3),
  ADMIN_EMAILS: adminEmails,
});

let a: RunningApp;
let b: RunningApp;
let onA: Call;
let onB: Call;
let admin: { userID: string; token: string };
let user: { userID: string; token: string };

beforeAll(async () => {
  // As an operator does: the account first, then its email listed (a listed address nobody
  // holds cannot be signed up with). This instance creates and migrates the databases.
  const setup = await startApp(env(""));
  const { userID } = await signUpAndLogIn(apiCaller(() => setup.url), adminEmail);
  await setup.stop();
  const admins = "root@example.com, admin@example.com"; // in another case than signed up with: emails match regardless
  [a, b] = await Promise.all([startApp(env(admins)), startApp(env(admins))]);
  onA = apiCaller(() => a.url);
  onB = apiCaller(() => b.url);
  const login = await onA("POST", "/auth/login", { body: { email: adminEmail, password: "correct horse battery" } });
  admin = { userID, token: login.body.token as string };
  user = await signUpAndLogIn(onA, "someone@example.com");
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await dropServerDatabases(prefix);
});

async function shorten(url: string, token?: string): Promise<string> {
  const res = await onA("POST", "/shorten", { body: { url }, token });
  expect(res.status).toBe(200);
  return res.body.code as string;
}

/** What `call`'s instance answers for a code: the status and, as JSON, the URL or the error's message. */
async function lookUp(call: Call, code: string): Promise<string> {
  const res = await call("GET", `/${code}`);
  return `${res.status} ${(res.body.url ?? res.body.message) as string}`;
}

/** Polls until `probe` answers `expected`, for at most a second: "at once" on every instance. */
async function within1s(probe: () => Promise<string>, expected: string): Promise<void> {
  const deadline = Date.now() + 1000;
  let last = await probe();
  while (last !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    last = await probe();
  }
  expect(last).toBe(expected);
}

/** Both instances have the link in their cache: a lookup on each. */
async function cachedOnBoth(code: string, url: string): Promise<void> {
  expect(await lookUp(onA, code)).toBe(`200 ${url}`);
  expect(await lookUp(onB, code)).toBe(`200 ${url}`);
}

const asAdmin = (call: Call, method: string, route: string, body?: unknown): Promise<Reply> => call(method, route, { body, token: admin.token });

describe("who may moderate", () => {
  const routes: [string, string, unknown?][] = [
    ["POST", "/admin/links/abcdef/disable", {}],
    ["POST", "/admin/links/abcdef/enable", {}],
    ["GET", "/admin/hosts"],
    ["POST", "/admin/hosts", { host: "evil.example" }],
    ["DELETE", "/admin/hosts/evil.example"],
    ["POST", "/admin/users/00000000-0000-4000-8000-000000000000/disable", {}],
    ["POST", "/admin/users/00000000-0000-4000-8000-000000000000/enable", {}],
    ["GET", "/admin/actions"],
  ];

  test.each(routes)("%s %s: 403 permission_denied for a signed-in user who is not an administrator, 401 without a token", async (method, route, body) => {
    const res = await onA(method, route, { body, token: user.token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "permission_denied", message: "only an administrator may do this" });
    expect((await onA(method, route, { body })).status).toBe(401);
  });

  test("an administrator cannot disable their own account", async () => {
    const res = await asAdmin(onA, "POST", `/admin/users/${admin.userID}/disable`, {});
    expect(res).toMatchObject({ status: 400, body: { code: "failed_precondition" } });
  });
});

describe("a link disabled for abuse", () => {
  test("answers 404 on every instance within a second, cached or not, and redirects again once enabled", async () => {
    const code = await shorten("https://abuse.example/phish");
    await cachedOnBoth(code, "https://abuse.example/phish");

    const disabled = await asAdmin(onB, "POST", `/admin/links/${code.toUpperCase()}/disable`, { reason: "phishing" });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ links: 1, action: { action: "disable_link", target: code, reason: "phishing", actorId: admin.userID } });
    await within1s(() => lookUp(onA, code), "404 link disabled for abuse");
    await within1s(() => lookUp(onB, code), "404 link disabled for abuse");
    expect((await asAdmin(onA, "POST", `/admin/links/${code}/disable`, {})).body).toMatchObject({ links: 0 });

    expect((await asAdmin(onA, "POST", `/admin/links/${code}/enable`, {})).body).toMatchObject({ links: 1, action: { action: "enable_link" } });
    await within1s(() => lookUp(onB, code), "200 https://abuse.example/phish");
    await within1s(() => lookUp(onA, code), "200 https://abuse.example/phish");
  });

  test("an unknown code is 404", async () => {
    for (const action of ["disable", "enable"]) {
      const res = await asAdmin(onA, "POST", `/admin/links/zz0000/${action}`, {});
      expect(res).toMatchObject({ status: 404, body: { code: "not_found", message: "no link with code zz0000" } });
    }
  });
});

describe("a banned host", () => {
  test("refuses new links on every instance, disables existing ones and its subdomains', and an unban restores them", async () => {
    const before = await shorten("https://www.spam.example/offer");
    const sibling = await shorten("https://notspam.example/fine");
    await cachedOnBoth(before, "https://www.spam.example/offer");
    // Both instances hold the banned hosts before the ban, so it must reach their copies.
    for (const call of [onA, onB]) expect((await call("POST", "/shorten", { body: { url: "https://warm.example" } })).status).toBe(200);

    const banned = await asAdmin(onA, "POST", "/admin/hosts", { host: "SPAM.example.", reason: "spam wave" });
    expect(banned.status).toBe(200);
    expect(banned.body).toMatchObject({ links: 1, action: { action: "ban_host", target: "spam.example", reason: "spam wave" } });
    const refused = { status: 400, body: { code: "invalid_argument", message: "links to spam.example are not allowed", details: null } };
    for (const call of [onB, onA]) {
      await within1s(async () => String((await call("POST", "/shorten", { body: { url: "https://spam.example/new" } })).status), "400");
      expect(await call("POST", "/shorten", { body: { url: "https://a.b.spam.example/x" } })).toEqual(refused);
      await within1s(() => lookUp(call, before), "404 link disabled for abuse");
      expect(await lookUp(call, sibling)).toBe("200 https://notspam.example/fine");
    }
    const mine = await shorten("https://fine.example/", user.token);
    expect(await onB("PATCH", `/links/${mine}`, { body: { url: "https://www.spam.example/moved" }, token: user.token })).toEqual(refused);
    expect((await asAdmin(onB, "POST", "/admin/hosts", { host: "spam.example" })).status).toBe(409);
    const list = await asAdmin(onB, "GET", "/admin/hosts");
    expect(list.body.hosts).toContainEqual({ host: "spam.example", reason: "spam wave", bannedAt: expect.any(String), bannedBy: admin.userID });

    const unbanned = await asAdmin(onB, "DELETE", "/admin/hosts/spam.example");
    expect(unbanned.body).toMatchObject({ links: 1, action: { action: "unban_host", target: "spam.example" } });
    for (const call of [onA, onB]) {
      await within1s(() => lookUp(call, before), "200 https://www.spam.example/offer");
      await within1s(async () => String((await call("POST", "/shorten", { body: { url: "https://spam.example/new" } })).status), "200");
    }
    expect((await asAdmin(onB, "DELETE", "/admin/hosts/spam.example")).status).toBe(404);
  });

  test("a host name is required, and a top-level domain alone is refused", async () => {
    for (const host of ["https://evil.example/path", "", "com"]) {
      expect((await asAdmin(onA, "POST", "/admin/hosts", { host })).body).toMatchObject({ code: "invalid_argument" });
    }
  });

  test("a link disabled for abuse stays disabled when its host is unbanned, and one disabled by a ban cannot be enabled alone", async () => {
    const abused = await shorten("https://mixed.example/abused");
    const plain = await shorten("https://mixed.example/plain");
    await asAdmin(onA, "POST", `/admin/links/${abused}/disable`, {});
    expect((await asAdmin(onA, "POST", "/admin/hosts", { host: "mixed.example" })).body).toMatchObject({ links: 1 });
    const enable = await asAdmin(onA, "POST", `/admin/links/${plain}/enable`, {});
    expect(enable).toMatchObject({ status: 400, body: { code: "failed_precondition" } });
    // Enabled for abuse while banned: disabled for the ban now.
    expect((await asAdmin(onA, "POST", `/admin/links/${abused}/enable`, {})).body).toMatchObject({ links: 0 });
    expect((await asAdmin(onA, "DELETE", "/admin/hosts/mixed.example")).body).toMatchObject({ links: 2 });
    await within1s(() => lookUp(onB, abused), "200 https://mixed.example/abused");
  });
});

describe("a disabled account", () => {
  test("has its token refused and its links disabled on every instance; enabled, its links work again, and it signs in afresh", async () => {
    const owner = await signUpAndLogIn(onA, "spammer@example.com");
    const code = await shorten("https://owned.example/x", owner.token);
    await cachedOnBoth(code, "https://owned.example/x");
    expect((await onB("GET", "/me/urls", { token: owner.token })).status).toBe(200);

    const disabled = await asAdmin(onA, "POST", `/admin/users/${owner.userID}/disable`, { reason: "spam" });
    expect(disabled.body).toMatchObject({ links: 1, action: { action: "disable_account", target: owner.userID, reason: "spam" } });
    for (const call of [onA, onB]) {
      expect((await call("GET", "/me/urls", { token: owner.token })).status).toBe(401);
      await within1s(() => lookUp(call, code), "404 link disabled");
    }

    expect((await asAdmin(onB, "POST", `/admin/users/${owner.userID}/enable`, {})).body).toMatchObject({ links: 1 });
    // Disabling ended what was issued before it: the old token stays refused, a new login works.
    const login = await onB("POST", "/auth/login", { body: { email: "spammer@example.com", password: "correct horse battery" } });
    for (const call of [onA, onB]) {
      expect((await call("GET", "/me/urls", { token: owner.token })).status).toBe(401);
      expect((await call("GET", "/me/urls", { token: login.body.token as string })).status).toBe(200);
      await within1s(() => lookUp(call, code), "200 https://owned.example/x");
    }
  });

  test("an unknown account is 404", async () => {
    const res = await asAdmin(onA, "POST", "/admin/users/00000000-0000-4000-8000-000000000000/disable", {});
    expect(res.body).toMatchObject({ code: "not_found" });
  });
});

describe("the audit log", () => {
  test("lists every action newest first, with who, what, why and when, a page at a time", async () => {
    const owner = await signUpAndLogIn(onA, "audited@example.com");
    const code = await shorten("https://audited.example/");
    const started = Date.now();
    const steps: [Call, string, string, unknown?][] = [
      [onA, "POST", `/admin/links/${code}/disable`, { reason: "first" }],
      [onB, "POST", `/admin/links/${code}/enable`, {}],
      [onA, "POST", "/admin/hosts", { host: "audited.example", reason: "spam" }],
      [onB, "DELETE", "/admin/hosts/audited.example"],
      [onA, "POST", `/admin/users/${owner.userID}/disable`, { reason: "last but one" }],
      [onB, "POST", `/admin/users/${owner.userID}/enable`, { reason: "last" }],
    ];
    for (const [call, method, route, body] of steps) expect((await asAdmin(call, method, route, body)).status).toBe(200);

    const newest = await asAdmin(onB, "GET", "/admin/actions?limit=6");
    expect(newest.body.actions).toEqual(
      [
        ["enable_account", owner.userID, "last"],
        ["disable_account", owner.userID, "last but one"],
        ["unban_host", "audited.example"],
        ["ban_host", "audited.example", "spam"],
        ["enable_link", code],
        ["disable_link", code, "first"],
      ].map(([action, target, reason]) => ({
        id: expect.any(Number),
        actorId: admin.userID,
        actorEmail: adminEmail,
        action,
        target,
        ...(reason !== undefined && { reason }),
        at: expect.any(String),
      })),
    );
    for (const { at } of newest.body.actions as { at: string }[]) {
      expect(Date.parse(at)).toBeGreaterThanOrEqual(started - 1000);
      expect(Date.parse(at)).toBeLessThanOrEqual(Date.now() + 1000);
    }

    const first = await asAdmin(onA, "GET", "/admin/actions?limit=1");
    expect(first.body.actions).toMatchObject([{ action: "enable_account" }]);
    const second = await asAdmin(onA, "GET", `/admin/actions?limit=1&cursor=${first.body.nextCursor as string}`);
    expect(second.body.actions).toMatchObject([{ action: "disable_account" }]);
    expect((await asAdmin(onA, "GET", "/admin/actions?cursor=nope")).status).toBe(400);
  });
});
