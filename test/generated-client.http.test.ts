// This app's generated clients as a front end uses them: written by the bin's `gen client`,
// type-checked in a project of their own (a browser's settings), then called against the
// app's real HTTP server for every exposed endpoint family.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { appRoot } from "../runtime/internal/config/app-root.ts";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";

const run = promisify(execFile);
const out = mkdtempSync(path.join(tmpdir(), "generated-client-"));
const bin = path.join(appRoot, "runtime/cli/main.mjs");
const tsc = path.join(appRoot, "node_modules/typescript/bin/tsc");

/** The same generator's output that the front end type-checks against (npm test generates it first). */
type GeneratedModule = typeof import("../frontend/src/client.gen.ts");

let server: TestServer;
let ts: GeneratedModule;
let js: GeneratedModule;

async function genClient(lang: string, file: string): Promise<string> {
  await run(process.execPath, [bin, "gen", "client", "--lang", lang, "--output", path.join(out, file)], { cwd: appRoot });
  return path.join(out, file);
}

beforeAll(async () => {
  server = await startTestServer();
  ts = (await import(pathToFileURL(await genClient("typescript", "client.ts")).href)) as GeneratedModule;
  js = (await import(pathToFileURL(await genClient("javascript", "client.js")).href)) as GeneratedModule;
}, 60_000);

afterAll(async () => {
  await server.close();
  rmSync(out, { recursive: true, force: true });
});

/** Type-checks `source` beside the generated client.ts, as a front-end project would. */
async function typeCheck(source: string): Promise<{ ok: boolean; output: string }> {
  writeFileSync(path.join(out, "consumer.ts"), source);
  const tsconfig = {
    compilerOptions: {
      target: "ES2022", module: "ESNext", moduleResolution: "bundler", lib: ["ES2022", "DOM", "DOM.Iterable"], types: [],
      strict: true, noUncheckedIndexedAccess: true, isolatedModules: true, verbatimModuleSyntax: true, noEmit: true,
    },
    files: ["consumer.ts", "client.ts"],
  };
  writeFileSync(path.join(out, "tsconfig.json"), JSON.stringify(tsconfig));
  try {
    await run(process.execPath, [tsc, "-p", out]);
    return { ok: true, output: "" };
  } catch (err) {
    return { ok: false, output: String((err as { stdout?: string }).stdout ?? err) };
  }
}

describe("the generated TypeScript client type-checks in a project of its own", () => {
  test("calls written the way Encore's client is called are accepted", async () => {
    const result = await typeCheck(`
      import Client, { APIError, ErrCode, Local, isAPIError, type links } from "./client";
      const client = new Client(Local, { auth: () => ({ authorization: "Bearer t" }) });
      export async function use(): Promise<string> {
        const made: links.ShortenResponse = await client.links.shorten({ url: "https://example.com" });
        const stats = await client.url.stats(made.code, {});
        const created: string = stats.createdAt;
        const page = await client.links.myUrls({ limit: 10 });
        const b = await client.urlb.get((await client.urlb.shorten({ url: "https://example.com" })).id);
        const res: Response = await client.url.resolve("GET", made.code);
        try { await client.with({ auth: undefined }).url.stats("nope00", {}); } catch (e) {
          if (isAPIError(e) && e.code === ErrCode.NotFound) return (e satisfies APIError).message;
        }
        return created + page.urls.length + b.url + res.status;
      }
    `);
    expect(result.output).toBe("");
    expect(result.ok).toBe(true);
  });

  test("a call that does not match the API is a type error", async () => {
    const result = await typeCheck(`
      import Client, { Local } from "./client";
      export const made = new Client(Local).links.shorten({ link: "https://example.com" });
    `);
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/link/);
  });
});

describe("the generated TypeScript client against the running app", () => {
  test("shortens, resolves through the raw endpoint, and reads the stats", async () => {
    const client = new ts.default(server.url);
    const made = await client.links.shorten({ url: "https://example.com/client" });
    expect(made.shortUrl).toMatch(new RegExp(`/${made.code}$`));
    const resolved = await client.url.resolve("GET", made.code);
    expect(resolved.status).toBe(200);
    expect(await resolved.json()).toEqual({ url: "https://example.com/client" });
    const stats = await client.url.stats(made.code, {});
    expect(stats).toMatchObject({ code: made.code, originalUrl: "https://example.com/client", clicks: 1 });
    expect(Date.parse(stats.createdAt)).not.toBeNaN();
  });

  test("variant B: shorten, then get by id", async () => {
    const client = new ts.default(server.url);
    const made = await client.urlb.shorten({ url: "https://example.com/b" });
    expect(await client.urlb.get(made.id)).toEqual({ id: made.id, url: "https://example.com/b" });
  });

  test("signs up, logs in, and pages through the signed-in user's links with auth", async () => {
    const client = new ts.default(server.url);
    await client.users.create({ email: "client@example.com", name: "Client", age: 30, password: "long enough pw" });
    const { token } = await client.auth.login({ email: "client@example.com", password: "long enough pw" });
    const signedIn = client.with({ auth: { authorization: `Bearer ${token}` } });
    const first = await signedIn.links.shorten({ url: "https://example.com/mine-1" });
    const second = await signedIn.links.shorten({ url: "https://example.com/mine-2" });
    const page1 = await signedIn.links.myUrls({ limit: 1 });
    expect(page1.urls.map((u) => u.code)).toEqual([second.code]);
    const page2 = await signedIn.links.myUrls({ limit: 1, cursor: page1.nextCursor });
    expect(page2.urls.map((u) => u.code)).toEqual([first.code]);
  });

  test("manages links with options, bulk and API keys, as the front end does", async () => {
    const client = new ts.default(server.url);
    await client.users.create({ email: "manager@example.com", name: "Manager", age: 30, password: "long enough pw" });
    const { token } = await client.auth.login({ email: "manager@example.com", password: "long enough pw" });
    const signedIn = client.with({ auth: { authorization: `Bearer ${token}` } });
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const made = await signedIn.links.shorten({ url: "https://example.com/aliased", alias: "Client-Alias", expiresAt, maxClicks: 5, title: "Mine" });
    expect(made.code).toBe("Client-Alias");
    const changed = await signedIn.links.updateLink(made.code, { url: "https://example.com/changed", maxClicks: null, title: null });
    expect(changed).toMatchObject({ code: "Client-Alias", originalUrl: "https://example.com/changed", status: "active", hasPassword: false });
    expect(changed.maxClicks).toBeUndefined();
    const bulk = await signedIn.links.bulkShorten({ items: [{ url: "https://example.com/bulk" }, { url: "ftp://example.com" }] });
    expect(bulk.results[0]).toMatchObject({ shortUrl: expect.stringMatching(/\/[a-z0-9]{6}$/) });
    expect(bulk.results[1]).toMatchObject({ error: { code: "invalid_argument" } });

    // An API key is the credential of a script: it works on links as its scopes allow, and never manages keys.
    const key = await signedIn.users.createApiKey({ name: "script", scopes: ["links:read", "links:write"] });
    const scripted = client.with({ auth: { authorization: `Bearer ${key.key}` } });
    const listed = await scripted.links.listLinks({ q: "client-alias" });
    expect(listed.links.map((l) => l.code)).toEqual(["Client-Alias"]);
    expect(await scripted.analytics.myClicks({}).catch((err: unknown) => err)).toMatchObject({ status: 403, code: ts.ErrCode.PermissionDenied });
    expect(await scripted.users.listApiKeys().catch((err: unknown) => err)).toMatchObject({ status: 403, code: ts.ErrCode.PermissionDenied });
    expect((await signedIn.users.listApiKeys()).keys.map((k) => [k.name, k.scopes])).toEqual([["script", ["links:read", "links:write"]]]);
    await scripted.links.deleteLink(made.code);
    expect(await signedIn.links.getLink(made.code)).toMatchObject({ status: "deleted" });
    await signedIn.users.revokeApiKey(key.id);
    expect(await scripted.links.listLinks({}).catch((err: unknown) => err)).toMatchObject({ status: 401, code: ts.ErrCode.Unauthenticated });
    // Moderation is in the client too, and refuses whoever is not an admin.
    expect(await signedIn.moderation.listBannedHosts().catch((err: unknown) => err)).toMatchObject({ status: 403, code: ts.ErrCode.PermissionDenied });
  });

  test("errors arrive as APIError with Encore's code, status and details", async () => {
    const client = new ts.default(server.url);
    const missing = await client.url.stats("zzzzz9", {}).catch((err: unknown) => err);
    expect(ts.isAPIError(missing)).toBe(true);
    expect(missing).toMatchObject({ status: 404, code: ts.ErrCode.NotFound, message: "url not found" });
    const invalid = await client.links.shorten({ url: "javascript:alert(1)" }).catch((err: unknown) => err);
    expect(invalid).toMatchObject({ status: 400, code: ts.ErrCode.InvalidArgument });
    const anonymous = await client.links.myUrls({}).catch((err: unknown) => err);
    expect(anonymous).toMatchObject({ status: 401, code: ts.ErrCode.Unauthenticated });
  });
});

describe("the other languages", () => {
  test("the JavaScript client makes the same calls without types", async () => {
    const client = new js.default(server.url);
    const made = await client.links.shorten({ url: "https://example.com/js" });
    expect((await client.url.stats(made.code, {})).originalUrl).toBe("https://example.com/js");
    const missing = await client.urlb.get("nope0000").catch((err: unknown) => err);
    expect(js.isAPIError(missing) && missing.code).toBe(js.ErrCode.NotFound);
  });

  test("openapi is the document the generator keeps in encore.gen", async () => {
    const written = JSON.parse(readFileSync(await genClient("openapi", "openapi.json"), "utf8"));
    expect(written).toEqual(JSON.parse(readFileSync(path.join(appRoot, "encore.gen/openapi.json"), "utf8")));
    // Every endpoint of the links, keys and moderation is described, with its method.
    const operations = Object.entries(written.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${p}`),
    );
    expect(operations).toEqual(expect.arrayContaining([
      "POST /links/bulk", "GET /links", "GET /links/{code}", "PATCH /links/{code}", "DELETE /links/{code}",
      "POST /me/api-keys", "GET /me/api-keys", "DELETE /me/api-keys/{id}",
      "POST /admin/links/{code}/disable", "POST /admin/hosts", "GET /admin/actions", "POST /admin/users/{id}/disable",
    ]));
  });
});
