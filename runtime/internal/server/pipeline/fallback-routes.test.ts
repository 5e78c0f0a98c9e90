// Fallback routes ("/!path") on a real server: they answer only what no other route,
// the runtime's own included, matches.
import type { IncomingMessage, ServerResponse } from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { currentRequest } from "../../../encore.dev/req-meta.ts";
import { config } from "../../config/mod.ts";
import type { EndpointMeta, JSONSchema } from "../../meta/types.ts";
import type { Endpoint } from "../../registry/endpoints.ts";
import { buildHttpServer } from "../http-server.ts";

const str: JSONSchema = { type: "string" };
const obj = (properties: Record<string, JSONSchema>, required: string[]): JSONSchema => ({ type: "object", properties, required });
/** `wildcard`: the parser's path schema leaves a wildcard's field unrequired, as it is absent when it matched nothing. */
const pathRequest = (name: string, wildcard = false) => ({
  fields: [{ name, location: "path" as const, wireName: name, optional: false }],
  path: obj({ [name]: str }, wildcard ? [] : [name]),
  query: null,
  headers: null,
  body: null,
  full: obj({ [name]: str }, [name]),
});

function endpoint(name: string, partial: Partial<EndpointMeta>, handler: unknown): Endpoint {
  const meta: EndpointMeta = {
    service: "svc", name, kind: "raw", file: "svc/api.ts", line: 1, doc: null, expose: true, auth: false,
    methods: ["GET"], path: `/svc.${name}`, pathParams: [], tags: [], sensitive: false, request: null, response: null,
    ...partial,
  };
  return { meta, handler };
}

const text = (body: string) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { "content-type": "text/plain" });
  res.end(body);
};

const root = mkdtempSync(path.join(tmpdir(), "fallback-"));
mkdirSync(path.join(root, "assets"));
writeFileSync(path.join(root, "assets", "app.js"), "console.log(1)");

const endpoints: Endpoint[] = [
  // The short-link route of the app: one segment, raw, GET and HEAD, on the fast lane.
  endpoint("code", { methods: ["GET", "HEAD"], path: "/:code", pathParams: [{ name: "code", wildcard: false }] },
    (req: IncomingMessage, res: ServerResponse) => text(`code ${req.url}`)(req, res)),
  endpoint("create", { kind: "typed", methods: ["POST"], path: "/url", response: obj({ ok: { type: "boolean" } }, ["ok"]) }, async () => ({ ok: true })),
  endpoint("main", { kind: "typed", path: "/:x/y", pathParams: [{ name: "x", wildcard: false }], request: pathRequest("x"), response: obj({ main: str }, ["main"]) },
    async ({ x }: { x: string }) => ({ main: x })),
  endpoint("assets", { kind: "static", methods: ["GET", "HEAD"], path: "/assets/*file", pathParams: [{ name: "file", wildcard: true }], static: { dir: "assets" } }, {}),
  endpoint("app", { kind: "typed", path: "/app/!rest", pathParams: [{ name: "rest", wildcard: true, fallback: true }], request: pathRequest("rest", true), response: obj({ rest: str, given: { type: "boolean" } }, ["rest", "given"]) },
    async (params: { rest: string }) => ({ rest: params.rest, given: "rest" in params })),
  endpoint("frontend", { path: "/!page", pathParams: [{ name: "page", wildcard: true, fallback: true }] },
    (req: IncomingMessage, res: ServerResponse) => {
      const meta = currentRequest();
      text(`frontend ${req.url} ${JSON.stringify(meta?.type === "api-call" ? meta.pathParams : null)}`)(req, res);
    }),
];

let server: { close(): Promise<void>; url: string };
beforeAll(async () => {
  const http = await buildHttpServer(endpoints, { ...config(), appRoot: root, pubsubAdminToken: null });
  await http.listen({ host: "127.0.0.1", port: 0 });
  const address = http.server.address();
  server = { url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`, close: () => http.close() };
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const get = async (p: string, init?: RequestInit) => {
  const res = await fetch(server.url + p, init);
  return { status: res.status, body: await res.text() };
};

describe("a fallback route", () => {
  test("answers what no route matches, at any depth, with the rest of the path as its parameter", async () => {
    expect(await get("/docs/guide/intro?x=1")).toEqual({ status: 200, body: 'frontend /docs/guide/intro?x=1 {"page":"docs/guide/intro"}' });
  });

  test("answers the bare root too, without its parameter, as Encore's route without the segment does", async () => {
    expect(await get("/")).toEqual({ status: 200, body: "frontend / {}" });
    expect(await get("/?x=1")).toEqual({ status: 200, body: "frontend /?x=1 {}" });
  });

  test("does not shadow a one-segment raw route served on the fast lane", async () => {
    expect(await get("/abc123")).toEqual({ status: 200, body: "code /abc123" });
  });

  test("does not shadow the runtime's own routes", async () => {
    const health = await get("/healthz");
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ status: "ok" });
    const object = await get("/objects/no-such-bucket/file.txt");
    expect(object.body).not.toMatch(/^frontend/);
  });

  test("does not shadow a static folder, whose missing files stay its own 404", async () => {
    expect(await get("/assets/app.js")).toEqual({ status: 200, body: "console.log(1)" });
    const missing = await get("/assets/missing.js");
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ code: "not_found" });
  });

  test("does not win over a parameter where a literal segment of its prefix matches", async () => {
    expect(JSON.parse((await get("/app/y")).body)).toEqual({ main: "app" });
    expect(JSON.parse((await get("/app/deep/link")).body)).toEqual({ rest: "deep/link", given: true });
  });

  test("a typed fallback gets the rest of the path as its field, as in Encore", async () => {
    expect(JSON.parse((await get("/app/intro")).body)).toEqual({ rest: "intro", given: true });
  });

  test("a route's trailing-slash twin wins over a fallback, as Encore's router has it", async () => {
    // "/:code" is also served at "/:code/" (runtimes/core/src/api/paths.rs), and the main routes come
    // before the fallbacks; the fallback-root fixture app holds a fallback's empty rest.
    expect(await get("/app/")).toEqual({ status: 200, body: "code /app/" });
  });

  test("answers only its own methods: another method of an unmatched path is 404", async () => {
    const res = await get("/docs/guide", { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual({ code: "not_found", message: "endpoint not found", details: null });
  });

  test("takes a path whose route lacks the method, as Encore's gateway tries its fallback router next", async () => {
    expect(JSON.parse((await get("/url", { method: "POST", body: "{}" })).body)).toEqual({ ok: true });
    expect((await get("/url/more")).body).toMatch(/^frontend \/url\/more/);
  });
});
