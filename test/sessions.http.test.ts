// Browser sessions over HTTP, as a browser and an attacker meet them: the refresh cookie
// login sets, its rotation, a copied token used again, two tabs refreshing at once,
// signing out, listing and revoking sessions, signing out everywhere, a password change
// and a disabling; and the callers without the credential.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { users } from "~encore/clients";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { db as usersDb } from "../users/db";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const password = "correct horse battery";
let accounts = 0;

interface Answer {
  status: number;
  body: Record<string, unknown>;
  /** The Set-Cookie header, when the answer has one. */
  setCookie: string | null;
}

async function send(method: string, path: string, opts: { token?: string; cookie?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  const res = await fetch(`${server.url}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, setCookie: res.headers.get("set-cookie") };
}

/** `refresh_token=<value>` from a Set-Cookie header, as the browser sends it back. */
function cookieOf(setCookie: string | null): string {
  const pair = setCookie?.split(";")[0] ?? "";
  expect(pair).toMatch(/^refresh_token=[A-Za-z0-9_-]{43}$/);
  return pair;
}

interface Signed {
  userID: string;
  email: string;
  token: string;
  cookie: string;
}

async function signUp(): Promise<{ userID: string; email: string }> {
  const email = `session${++accounts}@example.com`;
  const created = await send("POST", "/users", { body: { email, name: "Sam", password } });
  expect(created.status).toBe(200);
  return { userID: created.body.id as string, email };
}

async function logIn(email: string, userAgent = "TestBrowser/1.0"): Promise<{ token: string; cookie: string; answer: Answer }> {
  const answer = await send("POST", "/auth/login", { body: { email, password }, headers: { "user-agent": userAgent } });
  expect(answer.status).toBe(200);
  return { token: answer.body.token as string, cookie: cookieOf(answer.setCookie), answer };
}

async function signedIn(): Promise<Signed> {
  const account = await signUp();
  return { ...account, ...(await logIn(account.email)) };
}

/** Whether a login token is accepted now. */
async function accepted(token: string): Promise<boolean> {
  const res = await send("GET", "/me/api-keys", { token });
  expect([200, 401]).toContain(res.status);
  return res.status === 200;
}

/** Makes a replaced refresh token older than the 30 s grace, as if that long had passed. */
async function outOfGrace(userID: string): Promise<void> {
  await usersDb.exec`
    UPDATE session_tokens SET replaced_at = now() - interval '1 minute'
    WHERE replaced_at IS NOT NULL AND session_id IN (SELECT id FROM sessions WHERE user_id = ${userID}::uuid)`;
}

describe("login", () => {
  test("answers {token, expiresAt} as before, and sets the refresh cookie: HttpOnly, SameSite=Strict, Path=/auth, 90 days, Secure (PUBLIC_BASE_URL is https here)", async () => {
    const { answer } = await signedIn().then(async (s) => ({ answer: (await logIn(s.email)).answer }));
    expect(Object.keys(answer.body).sort()).toEqual(["expiresAt", "token"]);
    const attributes = answer.setCookie!.split("; ").slice(1);
    expect(attributes.sort()).toEqual(["HttpOnly", `Max-Age=${90 * 24 * 3600}`, "Path=/auth", "SameSite=Strict", "Secure"]);
  });

  test("a sign-up without age works; one with age gets it back, as the spec's CreateUserRequest has it", async () => {
    const without = await send("POST", "/users", { body: { email: "noage@example.com", name: "N", password } });
    expect(without.status).toBe(200);
    expect(without.body).not.toHaveProperty("age");
    const withAge = await send("POST", "/users", { body: { email: "age@example.com", name: "A", age: 36, password } });
    expect(withAge.body).toMatchObject({ age: 36 });
  });
});

describe("POST /auth/refresh", () => {
  test("answers a new login token and rotates the cookie; the old cookie, sent again within the grace, gets a token but no new cookie", async () => {
    const { token, cookie } = await signedIn();
    const first = await send("POST", "/auth/refresh", { cookie });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(["expiresAt", "token"]);
    const next = cookieOf(first.setCookie);
    expect(next).not.toBe(cookie);
    expect(await accepted(first.body.token as string)).toBe(true);
    expect(await accepted(token)).toBe(true); // the login's token lives on until it expires

    const again = await send("POST", "/auth/refresh", { cookie });
    expect(again.status).toBe(200);
    expect(again.setCookie).toBeNull();
    expect(await accepted(again.body.token as string)).toBe(true);
    expect((await send("POST", "/auth/refresh", { cookie: next })).status).toBe(200);
  });

  test("two tabs refreshing at the same moment with one cookie both get a token, exactly one gets the next cookie, and the session lives on", async () => {
    const { cookie } = await signedIn();
    const answers = await Promise.all(Array.from({ length: 6 }, () => send("POST", "/auth/refresh", { cookie })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const cookies = answers.map((a) => a.setCookie).filter((c) => c !== null);
    expect(cookies).toHaveLength(1);
    for (const a of answers) expect(await accepted(a.body.token as string)).toBe(true);
    expect((await send("POST", "/auth/refresh", { cookie: cookieOf(cookies[0]!) })).status).toBe(200);
  });

  test("a replaced token used again after the grace ends the whole session: the thief's newer cookie and the session's login tokens are refused", async () => {
    const { userID, cookie } = await signedIn();
    const thief = await send("POST", "/auth/refresh", { cookie });
    const thiefCookie = cookieOf(thief.setCookie);
    await outOfGrace(userID);
    const owner = await send("POST", "/auth/refresh", { cookie });
    expect(owner.status).toBe(401);
    expect(owner.body).toMatchObject({ code: "unauthenticated" });
    expect((await send("POST", "/auth/refresh", { cookie: thiefCookie })).status).toBe(401);
    expect(await accepted(thief.body.token as string)).toBe(false);
  });

  test("no cookie, another cookie, a malformed or an unknown refresh token: 401", async () => {
    for (const cookie of [undefined, "theme=dark", "refresh_token=short", `refresh_token=${"A".repeat(43)}`]) {
      const res = await send("POST", "/auth/refresh", { ...(cookie && { cookie }) });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: "unauthenticated" });
    }
  });
});

describe("POST /auth/logout", () => {
  test("ends this session: the cookie is cleared, its refresh token and its login token are refused at once; another session lives on", async () => {
    const me = await signedIn();
    const other = await logIn(me.email);
    const out = await send("POST", "/auth/logout", { cookie: me.cookie });
    expect(out.status).toBe(200);
    expect(out.setCookie).toBe("refresh_token=; Max-Age=0; Path=/auth; HttpOnly; SameSite=Strict; Secure");
    expect((await send("POST", "/auth/refresh", { cookie: me.cookie })).status).toBe(401);
    expect(await accepted(me.token)).toBe(false);
    expect(await accepted(other.token)).toBe(true);
    // Signing out again, or with no cookie, is no error.
    expect((await send("POST", "/auth/logout", { cookie: me.cookie })).status).toBe(200);
    expect((await send("POST", "/auth/logout")).status).toBe(200);
  });
});

describe("/me/sessions", () => {
  test("lists the caller's live sessions with their browser, the caller's marked current; an ended one is not listed", async () => {
    const me = await signedIn();
    const phone = await logIn(me.email, "PhoneBrowser/2.0");
    const gone = await logIn(me.email, "Gone/1.0");
    await send("POST", "/auth/logout", { cookie: gone.cookie });
    const listed = await send("GET", "/me/sessions", { token: phone.token });
    expect(listed.status).toBe(200);
    const sessions = listed.body.sessions as Array<Record<string, unknown>>;
    expect(sessions.map((s) => [s.userAgent, s.current])).toEqual([
      ["PhoneBrowser/2.0", true],
      ["TestBrowser/1.0", false],
    ]);
    for (const s of sessions) expect(Object.keys(s).sort()).toEqual(["createdAt", "current", "expiresAt", "id", "lastUsedAt", "userAgent"]);
  });

  test("DELETE /me/sessions/:id ends one: its login and refresh tokens are refused at once; another account's session, an unknown or ended one is 404", async () => {
    const me = await signedIn();
    const laptop = await logIn(me.email, "Laptop/1.0");
    const sessions = (await send("GET", "/me/sessions", { token: me.token })).body.sessions as Array<{ id: string; userAgent: string }>;
    const laptopID = sessions.find((s) => s.userAgent === "Laptop/1.0")!.id;
    const stranger = await signedIn();
    expect((await send("DELETE", `/me/sessions/${laptopID}`, { token: stranger.token })).status).toBe(404);
    expect(await accepted(laptop.token)).toBe(true);

    expect((await send("DELETE", `/me/sessions/${laptopID}`, { token: me.token })).status).toBe(200);
    expect(await accepted(laptop.token)).toBe(false);
    expect((await send("POST", "/auth/refresh", { cookie: laptop.cookie })).status).toBe(401);
    expect(await accepted(me.token)).toBe(true);
    expect((await send("DELETE", `/me/sessions/${laptopID}`, { token: me.token })).status).toBe(404);
    expect((await send("DELETE", "/me/sessions/not-a-uuid", { token: me.token })).status).toBe(404);
  });

  test("DELETE /me/sessions signs out everywhere: every session and login token ends at once, refreshed ones too; API keys keep working", async () => {
    const me = await signedIn();
    const other = await logIn(me.email);
    const refreshed = await send("POST", "/auth/refresh", { cookie: other.cookie });
    const key = await send("POST", "/me/api-keys", { token: me.token, body: { name: "script" } });
    expect(key.status).toBe(200);

    expect((await send("DELETE", "/me/sessions", { token: other.token })).status).toBe(200);
    for (const token of [me.token, other.token, refreshed.body.token as string]) expect(await accepted(token)).toBe(false);
    for (const cookie of [me.cookie, cookieOf(refreshed.setCookie)]) expect((await send("POST", "/auth/refresh", { cookie })).status).toBe(401);
    expect((await send("GET", "/me/urls", { token: key.body.key as string })).status).toBe(200);
    // Signing in again works.
    const again = await logIn(me.email);
    expect(await accepted(again.token)).toBe(true);
  });

  test("a password change ends every session; so does disabling the account", async () => {
    const me = await signedIn();
    const oldSession = ((await send("GET", "/me/sessions", { token: me.token })).body.sessions as Array<{ id: string }>)[0]!.id;
    const changed = await send("PUT", `/users/${me.userID}`, {
      token: me.token,
      body: { email: me.email, name: "Sam", password: "a brand new password", currentPassword: password },
    });
    expect(changed.status).toBe(200);
    expect((await send("POST", "/auth/refresh", { cookie: me.cookie })).status).toBe(401);
    expect((await send("GET", "/me/sessions", { token: me.token })).status).toBe(401);
    // Listed no more, and not to be ended again.
    const fresh = await send("POST", "/auth/login", { body: { email: me.email, password: "a brand new password" } });
    const listed = (await send("GET", "/me/sessions", { token: fresh.body.token as string })).body.sessions as Array<{ id: string }>;
    expect(listed.map((s) => s.id)).not.toContain(oldSession);
    expect(listed).toHaveLength(1);
    expect((await send("DELETE", `/me/sessions/${oldSession}`, { token: fresh.body.token as string })).status).toBe(404);

    const other = await signedIn();
    await users.setAccountDisabled({ id: other.userID, disabled: true });
    expect((await send("POST", "/auth/refresh", { cookie: other.cookie })).status).toBe(401);
    await users.setAccountDisabled({ id: other.userID, disabled: false });
    expect((await send("POST", "/auth/refresh", { cookie: other.cookie })).status).toBe(401); // enabled again, it signs in afresh
  });

  test("an API key cannot list or end sessions (403), whatever its scopes; without a credential it is 401", async () => {
    const me = await signedIn();
    const key = (await send("POST", "/me/api-keys", { token: me.token, body: { name: "all scopes" } })).body.key as string;
    const sessionID = ((await send("GET", "/me/sessions", { token: me.token })).body.sessions as Array<{ id: string }>)[0]!.id;
    for (const [method, path] of [["GET", "/me/sessions"], ["DELETE", `/me/sessions/${sessionID}`], ["DELETE", "/me/sessions"]] as const) {
      const withKey = await send(method, path, { token: key });
      expect(withKey.status).toBe(403);
      expect(withKey.body).toMatchObject({ code: "permission_denied" });
      expect((await send(method, path)).status).toBe(401);
    }
    expect(await accepted(me.token)).toBe(true);
  });
});
