// The HTTP layer on its own, with endpoints described by hand: what the parser
// would produce for them is covered by the parser's tests.
import type { IncomingMessage, ServerResponse } from "node:http";
import { connect } from "node:net";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { stoppedServerUrl } from "../../test/closed-port.ts";
import { config } from "../config/mod.ts";
import { APIError, ErrCode } from "../errors/api-error.ts";
import type { EndpointMeta, JSONSchema, RequestMeta } from "../meta/types.ts";
import type { Endpoint } from "../registry/endpoints.ts";
import { obj, testEndpoint } from "../../test/endpoints.ts";
import { buildHttpServer } from "./http-server.ts";

const str: JSONSchema = { type: "string" };
const num: JSONSchema = { type: "number" };
const endpoint = (name: string, partial: Partial<EndpointMeta>, handler: unknown): Endpoint =>
  testEndpoint(name, { methods: ["POST"], path: `/svc.${name}`, response: obj({ ok: { type: "boolean" } }), ...partial }, handler);

const searchRequest: RequestMeta = {
  fields: [
    { name: "id", location: "path", wireName: "id", optional: false },
    { name: "limit", location: "query", wireName: "limit", optional: true },
    { name: "exact", location: "query", wireName: "exact", optional: true },
    { name: "tags", location: "query", wireName: "tag", optional: true },
    { name: "traceId", location: "header", wireName: "x-trace-id", optional: true },
  ],
  path: obj({ id: num }, ["id"]),
  query: obj({ limit: num, exact: { type: "boolean" }, tag: { type: "array", items: str } }),
  headers: obj({ "x-trace-id": str }),
  body: null,
  full: obj({ id: num, limit: num, exact: { type: "boolean" }, tags: { type: "array", items: str }, traceId: str }, ["id"]),
};

const since = { type: "string", format: "date-time", "x-encore-type": "date" };

const endpoints: Endpoint[] = [
  ...Object.values(ErrCode)
    .filter((code) => code !== ErrCode.OK)
    .map((code) =>
      endpoint(`fail_${code}`, {}, async () => {
        throw new APIError(code, `failed with ${code}`, undefined, { reason: code });
      }),
    ),
  endpoint("crash", {}, async () => {
    throw new Error("password=hunter2 at db.internal:5432");
  }),
  endpoint("search", { methods: ["GET"], path: "/search/:id", request: searchRequest, response: obj({ got: {} }) },
    async (p: unknown) => ({ got: p }),
  ),
  endpoint(
    "tiny",
    {
      bodyLimit: 64,
      request: { fields: [{ name: "s", location: "body", wireName: "s", optional: false }], path: null, query: null, headers: null, body: obj({ s: str }, ["s"]), full: obj({ s: str }, ["s"]) },
    },
    async () => ({ ok: true }),
  ),
  endpoint(
    "dated",
    {
      request: { fields: [{ name: "since", location: "body", wireName: "since", optional: false }], path: null, query: null, headers: null, body: obj({ since }, ["since"]), full: obj({ since }, ["since"]) },
      response: obj({ isDate: { type: "boolean" }, year: num, echo: since }),
    },
    async ({ since }: { since: Date }) => ({ isDate: since instanceof Date, year: since.getUTCFullYear(), echo: since }),
  ),
  endpoint("nothing", { response: null }, async () => undefined),
  endpoint(
    "partial",
    { response: obj({ id: num, name: str, required: { type: "boolean" }, inner: obj({ a: str, b: num }, ["a", "b"]) }, ["id", "name", "required", "inner"]) },
    async () => ({ id: 1, required: true, inner: { a: "x" } }),
  ),
  endpoint(
    "either",
    { response: obj({ value: { anyOf: [obj({ a: str }, ["a"]), obj({ b: num }, ["b"])] } }, ["value"]) },
    async () => ({ value: { b: 2 } }),
  ),
  endpoint("hidden", { expose: false, methods: ["GET"], path: "/hidden" }, async () => ({ ok: true })),
  endpoint("files", { kind: "raw", methods: ["*"], path: "/raw/*rest", request: null, response: null }, (req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      res.writeHead(201, { "content-type": "text/plain" });
      res.end(`${req.method} ${req.url} ${body}`);
    });
  }),
  endpoint("rawCrash", { kind: "raw", methods: ["GET"], path: "/raw-crash", request: null, response: null }, () => {
    throw new Error("raw secret");
  }),
  // The app's own drizzle pool, its server stopped: a DrizzleQueryError around ECONNREFUSED.
  endpoint("dbDown", {}, async () => {
    try {
      await stoppedDatabase().execute(sql`SELECT 1`);
    } catch (err) {
      throw APIError.internal("call to other.service failed", err as Error); // as ~encore/clients wraps it
    }
  }),
  endpoint("rawDbDown", { kind: "raw", methods: ["GET"], path: "/raw-db-down", request: null, response: null }, async () => {
    await stoppedDatabase().execute(sql`SELECT 1`);
  }),
];

let stoppedOrm: ReturnType<typeof drizzle> | undefined;
function stoppedDatabase(): ReturnType<typeof drizzle> {
  if (!stoppedOrm) throw new Error("set up in beforeAll");
  return stoppedOrm;
}

async function serve(exposeInternalErrors: boolean) {
  const server = await buildHttpServer(endpoints, { appRoot: process.cwd(), exposeInternalErrors, pubsubAdminToken: null, objects: config().objects, trustProxy: false });
  await server.listen({ host: "127.0.0.1", port: 0 });
  const address = server.server.address();
  return { http: server, url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` };
}

let server: Awaited<ReturnType<typeof serve>>;
beforeAll(async () => {
  stoppedOrm = drizzle(await stoppedServerUrl());
  server = await serve(false);
});
afterAll(async () => {
  await server.http.close();
  await stoppedOrm?.$client.end();
});

const post = (path: string, body = "{}") => fetch(server.url + path, { method: "POST", body });

describe("errors use Encore's wire format and status for every code", () => {
  const expected: Record<string, number> = {
    canceled: 499, unknown: 500, invalid_argument: 400, deadline_exceeded: 504, not_found: 404,
    already_exists: 409, permission_denied: 403, resource_exhausted: 429, failed_precondition: 400,
    aborted: 409, out_of_range: 400, unimplemented: 501, internal: 500, unavailable: 503,
    data_loss: 500, unauthenticated: 401,
  };
  test.each(Object.entries(expected))("%s -> %i", async (code, status) => {
    const res = await post(`/svc.fail_${code}`);
    expect(res.status).toBe(status);
    const body = await res.json();
    // internal hides its message, as Encore's does (runtimes/js/src/error.rs); unknown keeps it, as there.
    const message = code === "internal" ? "an internal error occurred" : `failed with ${code}`;
    expect(body).toEqual({ code, message, details: { reason: code } });
  });
});

/** Sends `raw` on a socket of its own and reads until the server closes it. */
function sendRaw(raw: string): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.end(raw));
    let answer = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => (answer += chunk));
    socket.on("close", () => resolve(answer)).on("error", reject);
  });
}

describe("requests the HTTP parser cannot read", () => {
  test.each([
    ["a header line without a colon", "GET /search/1 HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n", 400, "malformed HTTP request"],
    ["a bad chunk size", "POST /svc.crash HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400, "malformed HTTP request"],
    ["headers past the size limit", `GET /search/1 HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, 431, "the request's headers are too large"],
  ])("%s: answered in Encore's format, then the connection closed", async (_name, raw, status, message) => {
    const answer = await sendRaw(raw);
    const [head, body] = answer.split("\r\n\r\n");
    expect(head!.split("\r\n")[0]).toBe(`HTTP/1.1 ${status} ${status === 400 ? "Bad Request" : "Request Header Fields Too Large"}`);
    expect(head).toMatch(/\r\nConnection: close(\r\n|$)/);
    expect(JSON.parse(body!)).toEqual({ code: "invalid_argument", message, details: null });
  });
});

describe("unexpected exceptions", () => {
  test("are 500 internal with no message or stack leaked", async () => {
    const res = await post("/svc.crash");
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ code: "internal", message: "an internal error occurred", details: null });
    expect(text).not.toMatch(/hunter2|at |\.ts/);
  });

  test("carry their message when the development flag is set", async () => {
    const dev = await serve(true);
    try {
      const res = await fetch(`${dev.url}/svc.crash`, { method: "POST", body: "{}" });
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({ code: "internal", message: "password=hunter2 at db.internal:5432" });
    } finally {
      await dev.http.close();
    }
  });
});

describe("path, query and header fields", () => {
  test("text is coerced to the declared types and mapped to parameter names", async () => {
    const res = await fetch(`${server.url}/search/42?limit=10&exact=true&tag=a&tag=b`, {
      headers: { "X-Trace-Id": "t-1" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ got: { id: 42, limit: 10, exact: true, tags: ["a", "b"], traceId: "t-1" } });
  });

  test("a lone repeated-key value still becomes an array", async () => {
    const res = await fetch(`${server.url}/search/1?tag=only`);
    expect(await res.json()).toEqual({ got: { id: 1, tags: ["only"] } });
  });

  test.each([
    ["/search/abc", /^path parameter is not a valid number$/],
    ["/search/1?limit=ten", /^unable to decode query string: limit: expected a number, got ten$/],
    ["/search/1?exact=maybe", /^unable to decode query string: exact: expected a boolean, got maybe$/],
  ])("%s is 400 naming the field", async (path, message) => {
    const res = await fetch(server.url + path);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe("invalid_argument");
    expect(body.message).toMatch(message);
  });
});

describe("bodies", () => {
  test("a per-endpoint bodyLimit is enforced with 413", async () => {
    const ok = await post("/svc.tiny", JSON.stringify({ s: "short" }));
    expect(ok.status).toBe(200);
    const big = await post("/svc.tiny", JSON.stringify({ s: "x".repeat(100) }));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: "resource_exhausted" });
  });

  test("a Date field arrives as a Date and goes back out as ISO text", async () => {
    const res = await post("/svc.dated", JSON.stringify({ since: "2024-02-29T12:00:00.000Z" }));
    expect(await res.json()).toEqual({ isDate: true, year: 2024, echo: "2024-02-29T12:00:00.000Z" });
  });

  test("a malformed date is refused before the handler", async () => {
    const res = await post("/svc.dated", JSON.stringify({ since: "yesterday" }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: 'unable to decode request body: since: invalid datetime: input contains invalid characters' });
  });

  test("a response missing declared fields is written with the fields it has, as Encore does", async () => {
    const res = await post("/svc.partial");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 1, required: true, inner: { a: "x" } });
  });

  test("a union in a response is still written by the branch its value matches", async () => {
    const res = await post("/svc.either");
    expect(await res.json()).toEqual({ value: { b: 2 } });
  });

  test("a void endpoint answers 200 with an empty body", async () => {
    const res = await post("/svc.nothing");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });
});

describe("other endpoint kinds", () => {
  test("an unexposed endpoint has no public route", async () => {
    expect((await fetch(`${server.url}/hidden`)).status).toBe(404);
  });

  test("a raw endpoint gets the untouched request, body unread, any method", async () => {
    const res = await fetch(`${server.url}/raw/a/b?c=1`, { method: "PUT", body: "not json at all" });
    expect(res.status).toBe(201);
    expect(await res.text()).toBe("PUT /raw/a/b?c=1 not json at all");
  });

  test("a raw endpoint that throws still gets a 500 in Encore's format", async () => {
    const res = await fetch(`${server.url}/raw-crash`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ code: "internal", message: "an internal error occurred", details: null });
  });
});

describe("a database that cannot be reached", () => {
  const unavailable = { code: "unavailable", message: "the database is unavailable; please retry", details: null };

  test("is 503 unavailable from a typed endpoint, through drizzle's error and an internal wrapper", async () => {
    const res = await post("/svc.dbDown");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual(unavailable);
  });

  test("is 503 unavailable from a raw endpoint", async () => {
    const res = await fetch(`${server.url}/raw-db-down`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual(unavailable);
  });
});
