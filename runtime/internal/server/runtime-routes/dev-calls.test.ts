// Internal endpoints reached by the development dashboard over HTTP: a real server with
// endpoints described by hand (as in http-server.test.ts), with and without the dashboard's secret.
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getAuthData } from "../../../encore.dev/internal/codegen/auth/mod.ts";
import { config } from "../../config/mod.ts";
import type { AuthHandlerMeta, EndpointMeta, JSONSchema } from "../../meta/types.ts";
import type { AuthHandlerEntry, Endpoint } from "../../registry/endpoints.ts";
import { buildHttpServer } from "../http-server.ts";
import { createDevCalls, devAuthDataHeader, devCallHeader, encodeAuthData } from "./dev-calls.ts";

const str: JSONSchema = { type: "string" };
const obj = (properties: Record<string, JSONSchema>, required: string[] = []): JSONSchema => ({ type: "object", properties, required });

function endpoint(name: string, partial: Partial<EndpointMeta>, handler: unknown): Endpoint {
  const meta: EndpointMeta = {
    service: "svc", name, kind: "typed", file: "svc/api.ts", line: 1, doc: null, expose: true, auth: false,
    methods: ["GET"], path: `/svc.${name}`, pathParams: [], tags: [], sensitive: false, request: null,
    response: obj({ who: { anyOf: [str, { type: "null" }] } }),
    ...partial,
  };
  return { meta, handler };
}

const text = (body: string) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { "content-type": "text/plain" });
  res.end(body);
};
const whoAmI = async () => ({ who: (getAuthData() as { userID: string } | null)?.userID ?? null });

let authRuns = 0;
const authMeta: AuthHandlerMeta = {
  service: "gate", name: "auth", exportName: "auth", file: "gate/auth.ts", line: 1,
  params: {
    fields: [{ name: "authorization", location: "header", wireName: "authorization", optional: false }],
    path: null, query: null, headers: obj({ authorization: str }, ["authorization"]), body: null,
    full: obj({ authorization: str }, ["authorization"]),
  },
  authData: obj({ userID: str, email: str }, ["userID", "email"]),
  gateway: { file: "gate/auth.ts", line: 2 },
};
const authEntry: AuthHandlerEntry = {
  meta: authMeta,
  handler: async (params) => {
    authRuns++;
    if (params["authorization"] === "Bearer alice") return { userID: "alice", email: "alice@example.com" };
    return null;
  },
};

const endpoints: Endpoint[] = [
  // The app's short-link route: raw, on the fast lane, one segment; "/url" below is internal.
  endpoint("code", { kind: "raw", methods: ["GET", "HEAD"], path: "/:code", pathParams: [{ name: "code", wildcard: false }], response: null },
    (req: IncomingMessage, res: ServerResponse) => text(`code ${req.url}`)(req, res)),
  endpoint("list", { expose: false, path: "/url" }, whoAmI),
  endpoint("secret", { expose: false, path: "/internal/secret" }, whoAmI),
  endpoint("private", { expose: false, auth: true, path: "/internal/private" }, whoAmI),
  endpoint("upload", { kind: "raw", expose: false, methods: ["POST"], path: "/internal/upload", response: null },
    (req: IncomingMessage, res: ServerResponse) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => text(`got ${body}`)(req, res));
    }),
  endpoint("public", { path: "/public" }, whoAmI),
  endpoint("frontend", { kind: "raw", path: "/!page", pathParams: [{ name: "page", wildcard: true, fallback: true }], response: null },
    (req: IncomingMessage, res: ServerResponse) => text(`frontend ${req.url}`)(req, res)),
];

const devCalls = createDevCalls();
const servers: { close(): Promise<void> }[] = [];
let withDashboard: string;
let withoutDashboard: string;

async function serve(options: Parameters<typeof buildHttpServer>[2]): Promise<string> {
  const server = await buildHttpServer(endpoints, config(), options);
  await server.listen({ host: "127.0.0.1", port: 0 });
  servers.push(server);
  const address = server.server.address();
  if (typeof address !== "object" || !address) throw new Error("no address");
  return `http://127.0.0.1:${address.port}`;
}

beforeAll(async () => {
  withDashboard = await serve({ auth: authEntry, devCalls });
  withoutDashboard = await serve({ auth: authEntry });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const dev = (extra: Record<string, string> = {}) => ({ [devCallHeader]: devCalls.token, ...extra });

async function body(res: Response): Promise<unknown> {
  const type = res.headers.get("content-type") ?? "";
  return type.startsWith("application/json") ? res.json() : res.text();
}

describe("internal endpoints with the dashboard on", () => {
  test("answer a call carrying the boot's secret", async () => {
    const res = await fetch(`${withDashboard}/internal/secret`, { headers: dev() });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ who: null });
  });

  test("stay unrouted without the secret, or with another one: 404, or the fallback route, as without the dashboard", async () => {
    for (const base of [withDashboard, withoutDashboard]) {
      const withoutSecret: Record<string, string>[] = [{}, { [devCallHeader]: "wrong" }, { [devCallHeader]: `${devCalls.token.slice(0, -1)}${devCalls.token.endsWith("x") ? "y" : "x"}` }];
      for (const headers of withoutSecret) {
        const fallback = await fetch(`${base}/internal/secret`, { headers });
        expect([fallback.status, await body(fallback)]).toEqual([200, "frontend /internal/secret"]);
        const post = await fetch(`${base}/internal/upload`, { method: "POST", headers, body: "{}" });
        expect([post.status, await body(post)]).toEqual([404, { code: "not_found", message: "endpoint not found", details: null }]);
        // "/url" is internal; without the secret the exposed "/:code" takes it, on the fast lane.
        const code = await fetch(`${base}/url`, { headers });
        expect(await body(code)).toBe("code /url");
      }
    }
  });

  test("an internal path is routed to its endpoint, not to a route that would take it otherwise", async () => {
    const res = await fetch(`${withDashboard}/url`, { headers: dev() });
    expect(await res.json()).toEqual({ who: null });
    // Exposed routes answer a call carrying the secret as any other.
    expect(await body(await fetch(`${withDashboard}/abc`, { headers: dev() }))).toBe("code /abc");
    expect(await (await fetch(`${withDashboard}/public`, { headers: dev() })).json()).toEqual({ who: null });
  });

  test("raw internal endpoints get their body", async () => {
    const res = await fetch(`${withDashboard}/internal/upload`, { method: "POST", headers: dev(), body: "payload" });
    expect([res.status, await res.text()]).toEqual([200, "got payload"]);
  });

  test("without the dashboard the secret opens nothing", async () => {
    const res = await fetch(`${withoutDashboard}/internal/upload`, { method: "POST", headers: dev(), body: "{}" });
    expect(res.status).toBe(404);
  });
});

describe("auth data given by the dashboard", () => {
  test("stands in for the auth handler, which does not run", async () => {
    const before = authRuns;
    const data = { userID: "carol", email: "carol@example.com" };
    const res = await fetch(`${withDashboard}/internal/private`, { headers: dev({ [devAuthDataHeader]: encodeAuthData(data) }) });
    expect([res.status, await res.json()]).toEqual([200, { who: "carol" }]);
    expect(authRuns).toBe(before);
  });

  test("is checked against the auth handler's AuthData type", async () => {
    const shapeless = await fetch(`${withDashboard}/internal/private`, { headers: dev({ [devAuthDataHeader]: encodeAuthData({ userID: "x" }) }) });
    expect(shapeless.status).toBe(400);
    expect(await shapeless.json()).toMatchObject({ code: "invalid_argument", message: expect.stringContaining('"email" is required') });
    const garbled = await fetch(`${withDashboard}/internal/private`, { headers: dev({ [devAuthDataHeader]: "not json" }) });
    expect([garbled.status, ((await garbled.json()) as { code: string }).code]).toEqual([400, "invalid_argument"]);
  });

  test("internal endpoints still run the auth handler on its own parameters", async () => {
    const res = await fetch(`${withDashboard}/internal/private`, { headers: dev({ authorization: "Bearer alice" }) });
    expect(await res.json()).toEqual({ who: "alice" });
    const none = await fetch(`${withDashboard}/internal/private`, { headers: dev() });
    expect(none.status).toBe(401);
  });

  test("is ignored on exposed endpoints and without the secret", async () => {
    const header = { [devAuthDataHeader]: encodeAuthData({ userID: "mallory", email: "m@example.com" }) };
    expect(await (await fetch(`${withDashboard}/public`, { headers: dev(header) })).json()).toEqual({ who: null });
    expect(await (await fetch(`${withDashboard}/public`, { headers: header })).json()).toEqual({ who: null });
  });
});
