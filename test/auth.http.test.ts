// Accounts, login and bearer tokens over HTTP, as a client uses them: sign up, log
// in, shorten as that user, list the user's links; and every way a token is refused.
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { links } from "~encore/clients";
import { jwtKey } from "../auth/config";
import { tokenAudience, tokenIssuer } from "../auth/jwt/tokens";
import { apiCaller, signUpAndLogIn } from "./support/api-client.ts";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { db as urlDb } from "../url/db";
import { db as usersDb } from "../users/db";
import { apiKeyScopes } from "../access/scopes";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const call = apiCaller(() => server.url);

let accounts = 0;
/** A new account and a token for it. */
async function signedInUser(): Promise<{ email: string; userID: string; token: string }> {
  const email = `user${++accounts}@example.com`;
  const { created, login, userID, token } = await signUpAndLogIn(call, email);
  expect(created.status).toBe(200);
  expect(created.body).not.toHaveProperty("password");
  expect(created.body).not.toHaveProperty("passwordHash");
  expect(login.status).toBe(200);
  expect(Date.parse(login.body.expiresAt as string)).toBeGreaterThan(Date.now());
  return { email, userID, token };
}

const unauthenticated = { code: "unauthenticated", details: null };

describe("signing up and logging in", () => {
  test("a string age is refused before the handler runs", async () => {
    const res = await call("POST", "/users", { body: { email: "typed@example.com", name: "T", age: "36", password: "long enough pw" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "invalid_argument" });
  });

  test("a wrong password and an unknown email get the same answer", async () => {
    const { email } = await signedInUser();
    const wrong = await call("POST", "/auth/login", { body: { email, password: "not the password" } });
    const unknown = await call("POST", "/auth/login", { body: { email: "nobody@example.com", password: "not the password" } });
    expect(wrong.status).toBe(401);
    expect(unknown).toEqual(wrong);
  });

  test("after four failed logins in a row from one address, the fifth waits, with Retry-After, even if right", async () => {
    const { email } = await signedInUser();
    for (let i = 0; i < 4; i++) {
      expect((await call("POST", "/auth/login", { body: { email, password: `guess ${i} wrong` } })).status).toBe(401);
    }
    const fifth = await call("POST", "/auth/login", { body: { email, password: "correct horse battery" } });
    expect(fifth.status).toBe(429);
    expect(fifth.body).toMatchObject({ code: "resource_exhausted", details: { retryAfterSeconds: 1 } });
  });
});

describe("shortening as a signed-in user", () => {
  test("the creator is stored and GET /me/urls lists the user's links with clicks, a page at a time", async () => {
    const { userID, token } = await signedInUser();
    const first = await call("POST", "/shorten", { token, body: { url: "https://mine.example/1" } });
    const second = await call("POST", "/shorten", { token, body: { url: "https://mine.example/2" } });
    expect(first.status).toBe(200);
    const row = await urlDb.queryRow<{ created_by: string }>`SELECT created_by FROM urls WHERE code = ${first.body.code as string}`;
    expect(row?.created_by).toBe(userID);
    expect((await call("GET", `/${first.body.code as string}`)).status).toBe(200); // one click

    const page1 = await call("GET", "/me/urls?limit=1", { token });
    expect(page1.status).toBe(200);
    expect(page1.body.urls).toEqual([
      expect.objectContaining({ code: second.body.code, originalUrl: "https://mine.example/2", clicks: 0 }),
    ]);
    const page2 = await call("GET", `/me/urls?limit=1&cursor=${page1.body.nextCursor as string}`, { token });
    expect(page2.body.urls).toEqual([expect.objectContaining({ code: first.body.code, clicks: 1 })]);
    expect(page2.body).not.toHaveProperty("nextCursor");

    const other = await signedInUser();
    expect((await call("GET", "/me/urls", { token: other.token })).body.urls).toEqual([]); // only one's own
  });

  test("anonymous shortens still work, and a bad token on that public endpoint counts as anonymous", async () => {
    const anonymous = await call("POST", "/shorten", { body: { url: "https://anon.example" } });
    const badToken = await call("POST", "/shorten", { token: "not.a.token", body: { url: "https://anon.example/2" } });
    expect([anonymous.status, badToken.status]).toEqual([200, 200]);
    const rows = await urlDb.queryAll<{ created_by: string | null }>`
      SELECT created_by FROM urls WHERE code IN (${anonymous.body.code as string}, ${badToken.body.code as string})`;
    expect(rows.map((r) => r.created_by)).toEqual([null, null]);
  });
});

describe("auth data across calls", () => {
  test("a service-to-service call carries the caller's auth data, and without any an auth: true endpoint refuses", async () => {
    await expect(links.myUrls({})).rejects.toMatchObject({ code: "unauthenticated" });
    const { email, userID, token } = await signedInUser();
    await call("POST", "/shorten", { token, body: { url: "https://via-client.example/x" } });
    const mine = await links.myUrls({}, { authData: { userID, email, admin: false, credential: "login" as const, scopes: [...apiKeyScopes], credentialsVersion: 0 } });
    expect(mine.urls.map((u) => u.originalUrl)).toEqual(["https://via-client.example/x"]);
  });

  test("a bad token on a public short link still redirects", async () => {
    const { body } = await call("POST", "/shorten", { body: { url: "https://public.example/p" } });
    const res = await fetch(`${server.url}/${body.code as string}`, { headers: { authorization: "Bearer garbage" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: "https://public.example/p" });
  });
});

describe("tokens refused on an auth: true endpoint", () => {
  test("no token at all", async () => {
    const res = await call("GET", "/me/urls");
    expect(res).toEqual({ status: 401, body: { ...unauthenticated, message: "endpoint requires auth but none provided" } });
  });

  async function sign(claims: Record<string, unknown>, header: Record<string, unknown> = { alg: "HS256", typ: "JWT" }, key: Uint8Array = jwtKey) {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ email: "x@example.com", ...claims })
      .setProtectedHeader(header as { alg: string })
      .setIssuer(tokenIssuer)
      .setAudience(tokenAudience)
      .setIssuedAt(now - 7200)
      .setNotBefore(now - 7200)
      .sign(key);
  }

  test.each([
    ["an expired token", async (userID: string) => sign({ sub: userID, exp: Math.floor(Date.now() / 1000) - 3600 })],
    ["a wrong signature", async (userID: string) => sign({ sub: userID, exp: Math.floor(Date.now() / 1000) + 600 }, undefined, new TextEncoder().encode("another key, long enough to be accepted!"))],
    ["alg: none", async (userID: string) => {
      const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
      const now = Math.floor(Date.now() / 1000);
      return `${part({ alg: "none", typ: "JWT" })}.${part({ sub: userID, email: "x@example.com", iss: tokenIssuer, aud: tokenAudience, iat: now, nbf: now, exp: now + 600 })}.`;
    }],
    ["a tampered payload", async (userID: string, token: string) => {
      const [header, payload, signature] = token.split(".");
      const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>;
      claims.sub = `${userID}0`;
      return `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
    }],
  ])("%s", async (_, forge) => {
    const { userID, token } = await signedInUser();
    const forged = await forge(userID, token);
    const res = await call("GET", "/me/urls", { token: forged });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject(unauthenticated);
    expect((await call("GET", "/me/urls", { token })).status).toBe(200); // the genuine one still works
  });

  test("a token for a user who has since been deleted", async () => {
    const { userID, token } = await signedInUser();
    await usersDb.exec`DELETE FROM users WHERE id = ${userID}::uuid`;
    expect((await call("GET", "/me/urls", { token })).status).toBe(401);
  });
});
