// Every endpoint that requires auth (found by asking each operation of the OpenAPI document
// without a token) refuses every bad token with 401 unauthenticated: signed with another
// key, expired, not yet valid, alg none, wrong audience or issuer, missing claims, a
// deleted user's, tampered header, payload or signature, truncated, garbage, and random
// mutations of a genuine token generated with fast-check. The genuine token passes.
import { rmSync } from "node:fs";
import fc from "fast-check";
import { SignJWT } from "jose";
import { afterAll, expect, test } from "vitest";
import { dropServerDatabases, startApp, type RunningApp } from "../support/app-process.ts";
import { tempDataDir } from "../../runtime/vitest/temp-dir.ts";
import type { OpenApi } from "./fuzz-requests.ts";
import { send, shortenLimitsOff, summary } from "./load.ts";

// The app's token rules (auth/jwt/tokens.ts), as a client from outside would learn them.
const issuer = "url-shortener/auth";
const audience = "url-shortener/api";
const jwtSecret = "fault-suite-secret-".padEnd(48, "k");
const seed = Number(process.env.FUZZ_SEED?.trim() || 20_261_117);

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}tokens_`;
const dataDir = tempDataDir("tokens-");
afterAll(async () => {
  await dropServerDatabases(prefix);
  rmSync(dataDir, { recursive: true, force: true });
});

interface Endpoint {
  method: string;
  path: string;
  body?: string;
}

async function post<T>(app: RunningApp, route: string, body: unknown, token?: string, method = "POST", headers: Record<string, string> = {}): Promise<T> {
  const { status, body: text } = await send(app, route, { method, body: JSON.stringify(body), headers: token ? { ...headers, authorization: `Bearer ${token}` } : headers });
  if (status !== 200) throw new Error(`${method} ${route} answered ${status}: ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

async function user(app: RunningApp, email: string): Promise<{ id: string; token: string }> {
  const { id } = await post<{ id: string }>(app, "/users", { email, name: "T", age: 30, password: "correct horse battery" });
  const { token } = await post<{ token: string }>(app, "/auth/login", { email, password: "correct horse battery" });
  return { id, token };
}

const now = () => Math.floor(Date.now() / 1000);
const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
const key = (text: string) => new TextEncoder().encode(text);

function sign(claims: Record<string, unknown>, opts: { key?: Uint8Array; iss?: string | null; aud?: string | null } = {}) {
  // Issued and valid from a minute ago, unless the claims say otherwise.
  let jwt = new SignJWT({ email: "x@example.com", iat: now() - 60, nbf: now() - 60, ...claims }).setProtectedHeader({ alg: "HS256", typ: "JWT" });
  if (opts.iss !== null) jwt = jwt.setIssuer(opts.iss ?? issuer);
  if (opts.aud !== null) jwt = jwt.setAudience(opts.aud ?? audience);
  return jwt.sign(opts.key ?? key(jwtSecret));
}

/** Whether two tokens carry the same bytes in every segment (base64url lets a last character vary in bits it does not use). */
function sameBytes(a: string, b: string): boolean {
  const as = a.split(".");
  const bs = b.split(".");
  return as.length === bs.length && as.every((s, i) => Buffer.from(s, "base64url").equals(Buffer.from(bs[i]!, "base64url")) && /^[\w-]*$/.test(bs[i]!));
}

test("every bad token is refused with 401 unauthenticated on every endpoint that requires auth", async () => {
  const app = await startApp({ DATA_DIR: dataDir, DATABASE_NAME_PREFIX: prefix, SERVE_OPENAPI: "on", JWTSecret: jwtSecret, ...shortenLimitsOff });
  try {
    const owner = await user(app, "owner@example.com");
    const other = await user(app, "other@example.com");
    const gone = await user(app, "gone@example.com");
    // Deleting an account asks for its password again.
    await post(app, `/users/${gone.id}`, {}, gone.token, "DELETE", { "x-current-password": "correct horse battery" });

    // The endpoints that require auth: those that refuse a request without a token.
    const doc = JSON.parse((await send(app, "/openapi.json")).body!) as OpenApi;
    const endpoints: Endpoint[] = [];
    for (const [template, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) {
        // Another user's id: the request passes auth and is refused (403) or answered, never run on the owner's own account.
        const path = template.replace(/\{id\}/g, other.id).replace(/\{\w+\}/g, "1");
        const body = method === "get" || method === "delete" ? undefined : JSON.stringify({ email: "x@example.com", name: "X", age: 1 });
        const { status, body: text } = await send(app, path, { method: method.toUpperCase(), body });
        // /auth/refresh and /auth/logout are public: their credential is the session's cookie, not a bearer token.
        if (status === 401 && !template.startsWith("/auth/")) {
          expect(JSON.parse(text!)).toMatchObject({ code: "unauthenticated" });
          endpoints.push({ method: method.toUpperCase(), path, body });
        }
      }
    }
    // The documented ones at least (docs/endpoints.md): the discovery found what it should.
    const found = endpoints.map((e) => `${e.method} ${e.path.replace(other.id, "{id}")}`);
    expect(found).toEqual(expect.arrayContaining(["GET /me/urls", "GET /users", "GET /users/{id}", "PUT /users/{id}", "DELETE /users/{id}", "GET /api/orders/{id}", "GET /checkout/summary"]));

    const [header, payload, signature] = owner.token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    const valid = { sub: owner.id, exp: now() + 600 };
    const named: [string, string][] = [
      ["signed with another key", await sign(valid, { key: key("another key, long enough to be accepted!!!!") })],
      ["expired an hour ago", await sign({ sub: owner.id, exp: now() - 3600 })],
      ["not valid for an hour yet", await sign({ ...valid, nbf: now() + 3600 })],
      ["alg none", `${part({ alg: "none", typ: "JWT" })}.${payload}.`],
      ["alg none, signature kept", `${part({ alg: "none", typ: "JWT" })}.${payload}.${signature}`],
      ["alg HS512 in the header, HS256 signature", `${part({ alg: "HS512", typ: "JWT" })}.${payload}.${signature}`],
      ["alg RS256 in the header", `${part({ alg: "RS256", typ: "JWT" })}.${payload}.${signature}`],
      ["wrong audience", await sign(valid, { aud: "someone-else/api" })],
      ["no audience", await sign(valid, { aud: null })],
      ["wrong issuer", await sign(valid, { iss: "evil/auth" })],
      ["no issuer", await sign(valid, { iss: null })],
      ["no subject", await sign({ exp: now() + 600 })],
      ["no expiry", await sign({ sub: owner.id })],
      ["a subject of no account", await sign({ ...valid, sub: "00000000-0000-4000-8000-000000000000" })],
      ["a subject that is no user id at all", await sign({ ...valid, sub: "../../\u0000" })],
      ["a deleted user's genuine token", gone.token],
      ["payload tampered (sub of another user)", `${header}.${part({ ...claims, sub: other.id })}.${signature}`],
      ["payload tampered (expiry pushed)", `${header}.${part({ ...claims, exp: now() + 86_400 * 365 })}.${signature}`],
      ["signature of another token", `${header}.${payload}.${other.token.split(".")[2]}`],
      ["signature removed", `${header}.${payload}.`],
      ["signature reversed", `${header}.${payload}.${[...signature].reverse().join("")}`],
      ["two segments", `${header}.${payload}`],
      ["four segments", `${owner.token}.${signature}`],
      ["truncated in half", owner.token.slice(0, owner.token.length / 2)],
      ["payload not JSON", `${header}.${Buffer.from("not json").toString("base64url")}.${signature}`],
      ["header not JSON", `${Buffer.from("{").toString("base64url")}.${payload}.${signature}`],
      ["empty", ""],
      ["garbage", "garbage"],
      ["dots only", ".."],
      ["a JWE-shaped token", `${part({ alg: "dir", enc: "A256GCM" })}..aaaa.bbbb.cccc`],
    ];
    // Random damage to the genuine token: a character changed, inserted or removed, or the
    // token cut short; those that still decode to the same bytes are the same token, left out.
    const mutations = fc
      .sample(
        fc.tuple(fc.nat({ max: owner.token.length - 1 }), fc.constantFrom("change", "insert", "remove", "cut"), fc.constantFrom(..."ABCxyz019-_.=+/ %")).map(([at, how, ch]) => {
          const t = owner.token;
          if (how === "change") return t.slice(0, at) + (t[at] === ch ? (ch === "A" ? "B" : "A") : ch) + t.slice(at + 1);
          if (how === "insert") return t.slice(0, at) + ch + t.slice(at);
          if (how === "remove") return t.slice(0, at) + t.slice(at + 1);
          return t.slice(0, at);
        }),
        { seed, numRuns: 60 },
      )
      .filter((t) => !sameBytes(owner.token, t));
    const bad: [string, string][] = [...named, ...mutations.map((t, i): [string, string] => [`mutation ${i}`, t])];

    // Each bad token differs from a good one in the way its name says: this test's own
    // signing, with nothing changed, makes a token the app accepts.
    const control = await sign(valid);
    const accepted: string[] = [];
    let tried = 0;
    // Signing out everywhere ends the genuine tokens themselves: tried with them last, below.
    const signOutEverywhere = (e: Endpoint) => e.method === "DELETE" && e.path === "/me/sessions";
    for (const endpoint of endpoints.filter((e) => !signOutEverywhere(e))) {
      for (const good of [owner.token, control]) {
        const genuine = await send(app, endpoint.path, { method: endpoint.method, body: endpoint.body, headers: { authorization: `Bearer ${good}` } });
        expect({ endpoint, status: genuine.status }).not.toEqual({ endpoint, status: 401 });
      }
    }
    const attempts = endpoints.flatMap((endpoint) => bad.map(([name, token]) => ({ endpoint, name, token })));
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < attempts.length) {
          const { endpoint, name, token } = attempts[next++]!;
          tried++;
          const res = await send(app, endpoint.path, { method: endpoint.method, body: endpoint.body, headers: { authorization: `Bearer ${token}` } });
          const code = res.status === 401 ? (JSON.parse(res.body!) as { code: string }).code : undefined;
          if (res.status !== 401 || code !== "unauthenticated") accepted.push(`${name} on ${endpoint.method} ${endpoint.path}: ${res.status} ${res.body?.slice(0, 200)}`);
        }
      }),
    );
    expect(accepted).toEqual([]);
    const everywhere = endpoints.find(signOutEverywhere);
    expect(everywhere).toBeDefined();
    expect((await send(app, everywhere!.path, { method: "DELETE", headers: { authorization: `Bearer ${owner.token}` } })).status).toBe(200);
    summary("tokens", {
      "bad inputs tried": `${tried} requests: ${bad.length} bad tokens (${named.length} named, ${mutations.length} random mutations, seed ${seed}) on ${endpoints.length} endpoints that require auth`,
      "accepted or not 401": accepted.length,
    });
  } finally {
    await app.stop();
  }
}, 180_000);
