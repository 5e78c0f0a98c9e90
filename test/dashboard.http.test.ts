// The development dashboard's API against this app: its real server (internal endpoints
// routed for the dashboard's calls), its databases, pub/sub, cron and bucket, in this process.
import { request } from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db as analyticsDb } from "../analytics/db.ts";
import type { Catalog, CallResult, CronRunResult, CronState, DatabasesState, Flow, ObjectList, PubSubState, QueryResult } from "../runtime/internal/dashboard/api.ts";
import { startDashboard, type Dashboard } from "../runtime/internal/dashboard/server.ts";
import { appRoot } from "../runtime/internal/config/app-root.ts";
import { appMeta } from "../runtime/internal/meta/load.ts";
import { startPubSub } from "../runtime/internal/pubsub/mod.ts";
import { newDashboardSecret } from "../runtime/internal/config/dashboard-secret.ts";
import { accessCookieName } from "../runtime/internal/dashboard/access.ts";
import { createDevCalls, devCallHeader } from "../runtime/internal/server/runtime-routes/dev-calls.ts";
import { startTracing, stopTracing, traceStore } from "../runtime/internal/tracing/mod.ts";
import type { TraceDetail } from "../runtime/internal/tracing/records.ts";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { db as urlDb } from "../url/db.ts";
import { qrCodes } from "../links/qr-codes.ts";

const devCalls = createDevCalls();
const secret = newDashboardSecret();
const frontEnd = mkdtempSync(path.join(tmpdir(), "dashboard-dist-"));
let app: TestServer;
let dashboard: Dashboard;
let base: string;

const tracing = { keep: 1000, otlpEndpoint: null };

beforeAll(async () => {
  // As run's app does: traces kept, started before the routes are compiled.
  await startTracing({ keep: { maxTraces: tracing.keep }, otlpTracesUrl: null, serviceName: "url-shortener", environment: "test", messagingSystem: "postgresql" });
  app = await startTestServer({ devCalls });
  await startPubSub(); // as the server's start does, for an app with topics
  dashboard = await startDashboard({
    port: 0,
    meta: appMeta(),
    appRoot,
    appBaseUrl: app.url,
    appUrl: app.url,
    devCalls,
    secret,
    traces: traceStore(),
    tracing,
    frontEndDir: frontEnd,
  });
  base = `http://127.0.0.1:${dashboard.port}`;
});
afterAll(async () => {
  await dashboard.close();
  await app.close();
  await stopTracing(1000);
  rmSync(frontEnd, { recursive: true, force: true });
});

/** The cookie the link `run` prints gives a browser (see "who may use the dashboard"). */
const access = (port = dashboard.port): Record<string, string> => ({ cookie: `${accessCookieName(port)}=${secret}` });

/** A request to the dashboard with access, as the developer's browser sends it. */
function fetchWithAccess(route: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${base}${route}`, { ...init, headers: { ...access(), ...(init.headers as Record<string, string> | undefined) } });
}

async function get<T>(route: string): Promise<T> {
  const res = await fetchWithAccess(route);
  expect(res.status, `GET ${route}`).toBe(200);
  return (await res.json()) as T;
}

function post(route: string, body: unknown): Promise<Response> {
  return fetchWithAccess(route, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

async function call(body: Record<string, unknown>): Promise<CallResult> {
  const res = await post("/api/call", { query: [], headers: {}, body: null, auth: { kind: "none" }, ...body });
  expect(res.status).toBe(200);
  return (await res.json()) as CallResult;
}

async function sql(database: string, text: string): Promise<{ status: number; body: QueryResult & { code?: string; message?: string } }> {
  const res = await post(`/api/databases/${database}/query`, { sql: text });
  return { status: res.status, body: (await res.json()) as QueryResult & { code?: string; message?: string } };
}

/** A request with exactly these headers (fetch would set Host and Origin itself). */
function rawRequest(method: string, route: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: dashboard.port, method, path: route, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("app, catalog and flow", () => {
  test("GET /api/app names the app and this boot", async () => {
    const info = await get<{ appName: string; appBaseUrl: string; bootId: string; startedAt: string }>("/api/app");
    expect(info).toMatchObject({ appName: path.basename(appRoot), appBaseUrl: app.url });
    expect(info.bootId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(info.startedAt)).not.toBeNaN();
  });

  test("the catalog has POST /shorten with its request type, field docs and doc comment", async () => {
    const { services, auth } = await get<Catalog>("/api/catalog");
    const links = services.find((s) => s.name === "links")!;
    expect(links).toMatchObject({ dir: "links", databases: [], topics: ["link-events", "url-shortened"], publishes: ["link-events", "outgoing-mail", "url-shortened"], cronJobs: ["sweep-outbox"], buckets: ["qr-codes"], calls: ["url", "workspaces"] });
    const url = services.find((s) => s.name === "url")!;
    expect(url).toMatchObject({ dir: "url", databases: ["url"], topics: [], cronJobs: ["cleanup-stale-urls"], buckets: [] });
    expect(services.find((s) => s.name === "analytics")).toMatchObject({ calls: ["url", "workspaces"], subscriptions: [{ name: "track-analytics", topic: "url-shortened" }] });
    expect(services.find((s) => s.name === "transfers")).toMatchObject({
      databases: ["transfers"],
      topics: ["import-jobs"],
      publishes: ["import-jobs"],
      buckets: ["import-files"],
      calls: ["analytics", "links", "workspaces"],
      subscriptions: [{ name: "run-imports", topic: "import-jobs" }],
    });
    const shorten = links.endpoints.find((e) => e.name === "shorten")!;
    expect(shorten).toMatchObject({ kind: "typed", methods: ["POST"], path: "/shorten", expose: true, auth: false, source: expect.stringMatching(/^links\/shorten\.ts:\d+$/) });
    expect(shorten.doc).toContain("Stores a URL under a new random 6-character code");
    expect(shorten.request!.fields.map((f) => f.name).sort()).toEqual([
      "alias", "allowIndexing", "description", "domain", "expiresAt", "fallbackUrl", "fetchPreview", "forwardQuery", "forwardedFor",
      "maxClicks", "password", "preview", "redirectType", "rules", "startsAt", "tags", "title", "url", "workspaceId",
    ]);
    expect(shorten.request!.fields).toEqual(
      expect.arrayContaining([
        { name: "url", location: "body", wireName: "url", optional: false, type: "string", doc: "The long URL: absolute http or https, at most 2048 characters." },
        { name: "forwardedFor", location: "header", wireName: "x-forwarded-for", optional: true, type: "string", doc: expect.stringContaining("limits on creating links") },
        { name: "maxClicks", location: "body", wireName: "maxClicks", optional: true, type: "number", doc: expect.stringContaining("Counted exactly") },
      ]),
    );
    expect(shorten.request!.type).toContain("interface ShortenRequest {");
    expect(shorten.request!.type).toContain("/**\n     * The long URL: absolute http or https, at most 2048 characters.\n     */\n    url: string");
    expect(shorten.response).toContain("interface ShortenResponse {");
    expect(shorten.response).toContain("qrCodeUrl?: string");
    expect(shorten.example).toEqual({ method: "POST", path: "/shorten", query: [], headers: { "x-forwarded-for": "" }, body: expect.stringMatching(/^\{\n {2}"workspaceId": "",\n {2}"url": "",\n/) });
    expect(JSON.parse(shorten.example.body!)).toMatchObject({ url: "", alias: "", maxClicks: 0, expiresAt: expect.stringMatching(/^\d{4}-/) });
    // Path parameters get a sample; query fields are filled.
    const topCodes = url.endpoints.find((e) => e.name === "topCodes")!;
    expect(topCodes).toMatchObject({ expose: false, example: { method: "GET", path: "/internal/top-codes", query: [["limit", "0"]], body: null } });
    const stats = url.endpoints.find((e) => e.name === "stats")!;
    expect(stats.example.path).toBe("/code/stats");
    expect(auth).toMatchObject({ service: "auth", name: "auth" });
    expect(auth!.authData).toContain("userID: string");
  });

  test("the flow has service, topic and database nodes, and how they are linked", async () => {
    const { nodes, edges } = await get<Flow>("/api/flow");
    const ids = nodes.map((n) => n.id);
    expect(ids).toEqual(expect.arrayContaining(["service:url", "service:links", "service:analytics", "topic:url-shortened", "database:url", "bucket:qr-codes", "cron:daily-report"]));
    expect(edges).toEqual(
      expect.arrayContaining([
        { from: "service:links", to: "topic:url-shortened", kind: "publishes" },
        { from: "service:links", to: "service:url", kind: "calls" },
        { from: "topic:url-shortened", to: "service:analytics", kind: "subscribes", label: "track-analytics" },
        { from: "service:analytics", to: "service:url", kind: "calls" },
        { from: "service:url", to: "database:url", kind: "uses" },
        { from: "cron:cleanup-stale-urls", to: "service:url", kind: "schedules", label: "cleanupStaleUrls" },
      ]),
    );
    for (const edge of edges) expect(ids).toEqual(expect.arrayContaining([edge.from, edge.to]));
  });
});

describe("POST /api/call", () => {
  test("calls an exposed endpoint through the app's server", async () => {
    const result = await call({ service: "links", endpoint: "shorten", method: "POST", path: "/shorten", body: '{"url":"https://example.com/dashboard"}' });
    expect(result.status).toBe(200);
    expect(result.bodyEncoding).toBe("utf8");
    expect(JSON.parse(result.body)).toMatchObject({ code: expect.stringMatching(/^[A-Za-z0-9]{6}$/) });
    expect(result.headers["content-type"]).toMatch(/^application\/json/);
    expect(result.durationMs).toBeGreaterThan(0);
    // The server's own validation answers, as it would a client.
    const invalid = await call({ service: "links", endpoint: "shorten", method: "POST", path: "/shorten", body: '{"url": 5}' });
    expect(invalid.status).toBe(400);
  });

  test("calls an internal endpoint, which stays unrouted from outside, with or without a wrong secret", async () => {
    const result = await call({ service: "url", endpoint: "topCodes", method: "GET", path: "/internal/top-codes", query: [["limit", "5"]] });
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body)).toMatchObject({ totalClicks: expect.any(Number), top: expect.any(Array) });
    const withoutSecret: Record<string, string>[] = [{}, { [devCallHeader]: "not-the-secret" }];
    for (const headers of withoutSecret) {
      const outside = await fetch(`${app.url}/internal/top-codes?limit=5`, { headers });
      expect(outside.status).toBe(404); // the web front end's fallback: its not-found page, as without the dashboard
      expect(await outside.text()).not.toContain("totalClicks");
      const post = await fetch(`${app.url}/internal/users/verify-credentials`, { method: "POST", headers, body: "{}" });
      expect(await post.json()).toEqual({ code: "not_found", message: "endpoint not found", details: null });
    }
  });

  test("an internal endpoint takes auth data, checked against the auth handler's AuthData", async () => {
    const ok = await call({
      service: "users",
      endpoint: "userExists",
      method: "GET",
      path: "/internal/users/nobody/exists",
      auth: {
        kind: "authData",
        data: { userID: "u1", email: "u1@example.com", admin: false, credential: "login", scopes: [], credentialsVersion: 0 },
      },
    });
    expect([ok.status, JSON.parse(ok.body)]).toEqual([200, { exists: false }]);
    const bad = await call({ service: "users", endpoint: "userExists", method: "GET", path: "/internal/users/x/exists", auth: { kind: "authData", data: { userID: 1 } } });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ code: "invalid_argument", message: expect.stringContaining("AuthData") });
  });

  test("auth data is refused for an exposed endpoint; a bearer token goes through the auth handler", async () => {
    const refused = await post("/api/call", {
      service: "links", endpoint: "myUrls", method: "GET", path: "/me/urls", query: [], headers: {}, body: null,
      auth: { kind: "authData", data: { userID: "u1", email: "e" } },
    });
    expect(refused.status).toBe(400);
    const bearer = await call({ service: "links", endpoint: "myUrls", method: "GET", path: "/me/urls", auth: { kind: "bearer", token: "not-a-jwt" } });
    expect(bearer.status).toBe(401);
  });

  test("unknown endpoints and malformed calls are refused in Encore's format", async () => {
    const unknown = await post("/api/call", { service: "url", endpoint: "nope", method: "GET", path: "/", query: [], headers: {}, body: null, auth: { kind: "none" } });
    expect([unknown.status, ((await unknown.json()) as { code: string }).code]).toEqual([404, "not_found"]);
    const malformed = await post("/api/call", { service: "links", endpoint: "shorten", method: "POST", path: "shorten" });
    expect([malformed.status, ((await malformed.json()) as { code: string }).code]).toEqual([400, "invalid_argument"]);
  });
});

describe("who may use the dashboard", () => {
  const port = () => dashboard.port;

  test("a foreign Host (DNS rebinding) or Origin is refused with 403", async () => {
    const foreign: Record<string, string>[] = [
      { host: `evil.example:${port()}` },
      { host: `localhost:${port() + 1}` },
      { host: `127.0.0.1:${port()}`, origin: "http://evil.example" },
      { host: `127.0.0.1:${port()}`, origin: `https://localhost:${port()}` },
    ];
    for (const headers of foreign) {
      const res = await rawRequest("GET", "/api/catalog", headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ code: "permission_denied" });
    }
    for (const host of [`localhost:${port()}`, `127.0.0.1:${port()}`, `[::1]:${port()}`]) {
      expect((await rawRequest("GET", "/api/app", { host, origin: `http://${host}`, ...access() })).status).toBe(200);
    }
  });

  test("a POST without a JSON content type is refused, and nothing is published", async () => {
    // Deliveries of earlier tests' events first: one still in flight would end during the check.
    const idle = (state: PubSubState) => state.topics.every((t) => t.subscriptions.every((sub) => sub.backlog === 0 && sub.inFlight === 0));
    await expect.poll(async () => idle(await get<PubSubState>("/api/pubsub")), { timeout: 15_000 }).toBe(true);
    const before = await get<PubSubState>("/api/pubsub");
    const message = JSON.stringify({ topic: "url-shortened", message: { code: "x", originalUrl: "y", timestamp: new Date() } });
    const notJson: Record<string, string>[] = [{ "content-type": "text/plain" }, { "content-type": "application/x-www-form-urlencoded" }, {}];
    for (const headers of notJson) {
      const res = await rawRequest("POST", "/api/pubsub/publish", { host: `127.0.0.1:${port()}`, ...access(), ...headers }, message);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ code: "invalid_argument" });
    }
    expect(await get<PubSubState>("/api/pubsub")).toEqual(before);
  });
});

describe("pub/sub", () => {
  test("lists topics with their subscriptions, and a test message is delivered", async () => {
    const state = await get<PubSubState>("/api/pubsub");
    expect(state.provider).toBe("sql");
    const topic = state.topics.find((t) => t.name === "url-shortened")!;
    expect(topic).toMatchObject({ service: "links", subscriptions: [{ name: "track-analytics", service: "analytics", deadLetters: 0 }] });

    const day = "2031-05-06";
    const counted = async () => (await analyticsDb.queryRow<{ n: number }>`SELECT sum(urls_created)::int AS n FROM daily_stats WHERE date = ${day}::date`)?.n ?? 0;
    const res = await post("/api/pubsub/publish", { topic: "url-shortened", message: { code: "dash01", originalUrl: "https://example.com", timestamp: `${day}T12:00:00Z` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ messageId: expect.any(String) });
    await eventually(async () => (await counted()) === 1, "the subscription to count the test message");
  });

  test("a message that does not match the topic's type is 400 naming the field, and nothing is published", async () => {
    // Deliveries of earlier tests' events first: one still in flight would end during the check.
    const idle = (state: PubSubState) => state.topics.every((t) => t.subscriptions.every((sub) => sub.backlog === 0 && sub.inFlight === 0));
    await expect.poll(async () => idle(await get<PubSubState>("/api/pubsub")), { timeout: 15_000 }).toBe(true);
    const before = await get<PubSubState>("/api/pubsub");
    for (const [message, problem] of [
      [{ bogus: 1 }, "missing fields `code`, `originalUrl`, and `timestamp`"],
      [{ code: "x", originalUrl: "https://example.com", timestamp: "yesterday" }, "timestamp: invalid datetime: input contains invalid characters"],
      [{ code: 7, originalUrl: "https://example.com", timestamp: "2031-05-06T12:00:00Z" }, "code: invalid type: integer `7`, expected a string"],
    ] as const) {
      const res = await post("/api/pubsub/publish", { topic: "url-shortened", message });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ code: "invalid_argument", message: `the message does not match the type of topic "url-shortened" (UrlShortened): ${problem}`, details: null });
    }
    expect(await get<PubSubState>("/api/pubsub")).toEqual(before);
  });

  test("an unknown topic is 404 and a message that is not an object 400", async () => {
    expect((await post("/api/pubsub/publish", { topic: "nope", message: {} })).status).toBe(404);
    expect((await post("/api/pubsub/publish", { topic: "url-shortened", message: [1] })).status).toBe(400);
    expect((await post("/api/pubsub/redrive", { topic: "url-shortened", subscription: "nope" })).status).toBe(404);
    const redrive = await post("/api/pubsub/redrive", { topic: "url-shortened", subscription: "track-analytics" });
    expect(await redrive.json()).toEqual({ redriven: 0 });
  });
});

describe("cron", () => {
  test("run now waits for the run, which is recorded as manual", async () => {
    const res = await post("/api/cron/cleanup-stale-urls/run", {});
    expect(res.status).toBe(200);
    const result = (await res.json()) as CronRunResult;
    expect(result).toMatchObject({ outcome: "succeeded", error: null, traceId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(await get(`/api/traces/${result.traceId}`)).toMatchObject({ kind: "cron", service: "url", name: "cleanup-stale-urls", error: null });
    const { jobs } = await get<CronState>("/api/cron");
    const job = jobs.find((j) => j.name === "cleanup-stale-urls")!;
    expect(job).toMatchObject({ title: "Remove stale short URLs", service: "url", endpoint: { service: "url", name: "cleanupStaleUrls" }, schedule: "0 3 * * *" });
    expect(Date.parse(job.nextRun!)).toBeGreaterThan(Date.now());
    expect(job.lastRuns[0]).toMatchObject({ trigger: "manual", outcome: "succeeded", durationMs: expect.any(Number) });
    expect(jobs.find((j) => j.name === "daily-report")!.lastRuns).toEqual([]);
  });

  test("an unknown job is 404", async () => {
    expect((await post("/api/cron/nope/run", {})).status).toBe(404);
  });
});

describe("databases", () => {
  test("lists tables with estimates and the applied migrations", async () => {
    const { databases } = await get<DatabasesState>("/api/databases");
    const url = databases.find((d) => d.name === "url")!;
    expect(url.service).toBe("url");
    expect(url.physicalName).toMatch(/url$/);
    expect(url.migrations.map((m) => m.name)).toEqual(["1_create_urls.up.sql", "2_create_outbox.up.sql", "3_index_urls_created_at.up.sql", "4_add_created_by.up.sql", "5_add_stale_since.up.sql", "6_evict_cached_links.up.sql", "7_create_click_writers.up.sql", "8_manage_links.up.sql", "9_moderation.up.sql", "10_click_analytics.up.sql", "11_evict_on_disabled_reason.up.sql", "12_link_workspaces.up.sql", "13_tags.up.sql", "14_link_reports.up.sql", "15_imported_links.up.sql", "16_link_event_outbox.up.sql", "17_domains_and_redirects.up.sql", "18_workspace_links_nulls_last.up.sql", "19_workspace_search.up.sql", "20_workspace_click_analytics.up.sql", "21_link_click_order.up.sql", "22_urls_fillfactor.up.sql"]);
    expect(url.tables).toEqual(expect.arrayContaining([{ schema: "public", name: "urls", rowEstimate: expect.any(Number), sizeBytes: expect.any(Number) }]));
    expect(databases.find((d) => d.name === "orders")!.migrations.length).toBeGreaterThan(0); // drizzle-kit's layout
  });

  test("the console runs a SELECT, and cuts at 1,000 rows", async () => {
    await urlDb.exec`INSERT INTO urls (code, original_url) VALUES ('sqlc01', 'https://example.com/sql')`;
    const { status, body } = await sql("url", "SELECT code, original_url, clicks, created_at FROM urls WHERE code = 'sqlc01'");
    expect(status).toBe(200);
    expect(body.columns).toEqual([
      { name: "code", type: "text" },
      { name: "original_url", type: "text" },
      { name: "clicks", type: "integer" },
      { name: "created_at", type: "timestamp with time zone" },
    ]);
    expect(body.rows).toEqual([["sqlc01", "https://example.com/sql", 0, expect.stringMatching(/^\d{4}-/)]]);
    expect(body).toMatchObject({ rowCount: 1, truncated: false });
    const many = await sql("url", "SELECT n, '\\xdead'::bytea AS b FROM generate_series(1, 1500) AS n");
    expect(many.body).toMatchObject({ rowCount: 1000, truncated: true });
    expect(many.body.rows[999]).toEqual([1000, "\\xdead"]);
    expect((await sql("url", "SELECT current_setting('transaction_read_only'), current_user")).body.rows).toEqual([["on", "encore_console"]]);
  });

  test("writes, DDL, nextval() and several statements are refused with 400 (only a query goes through the cursor), and nothing changes", async () => {
    const count = async () => (await urlDb.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM urls`)!.n;
    const sequence = async () => (await urlDb.queryRow<{ v: number }>`SELECT last_value::int AS v FROM urls_id_seq`)!.v;
    const [rows, seq] = [await count(), await sequence()];
    for (const [text, message] of [
      ["INSERT INTO urls (code, original_url) VALUES ('sqlw01', 'x')", 'syntax error at or near "INSERT"'],
      ["UPDATE urls SET clicks = clicks + 1", 'syntax error at or near "UPDATE"'],
      ["DELETE FROM urls", 'syntax error at or near "DELETE"'],
      ["CREATE TABLE dashboard_was_here (id int)", 'syntax error at or near "CREATE"'],
      ["DROP TABLE urls", 'syntax error at or near "DROP"'],
      ["SELECT nextval('urls_id_seq')", "permission denied for sequence urls_id_seq"],
      ["WITH gone AS (DELETE FROM urls RETURNING id) SELECT count(*) FROM gone", "must not contain data-modifying statements in WITH"],
      ["SELECT 1; DELETE FROM urls", "one statement at a time"],
      ["", "no statement"],
      ["SELEC 1", "syntax error"],
    ]) {
      const { status, body } = await sql("url", text!);
      expect([text, status, body.code]).toEqual([text, 400, "invalid_argument"]);
      expect(body.message).toContain(message);
    }
    expect([await count(), await sequence()]).toEqual([rows, seq]);
    expect((await sql("url", "SELECT to_regclass('dashboard_was_here') AS t")).body.rows).toEqual([[null]]);
    expect((await sql("nope", "SELECT 1")).status).toBe(404);
  });
});

describe("buckets", () => {
  test("lists the bucket's objects with public URLs, and downloads one", async () => {
    const { buckets } = await get<{ buckets: { name: string; public: boolean }[] }>("/api/buckets");
    expect(buckets).toEqual([{ name: "import-files", service: "transfers", public: false, versioned: false }, { name: "qr-codes", service: "links", public: true, versioned: false }]);
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    await qrCodes.upload("dash/one.png", bytes, { contentType: "image/png" });
    await qrCodes.upload("dash/two.png", bytes, { contentType: "image/png" });
    const list = await get<ObjectList>("/api/buckets/qr-codes/objects?prefix=dash/");
    expect(list.objects).toEqual([
      { name: "dash/one.png", size: bytes.length, contentType: "image/png", publicUrl: qrCodes.publicUrl("dash/one.png") },
      { name: "dash/two.png", size: bytes.length, contentType: "image/png", publicUrl: qrCodes.publicUrl("dash/two.png") },
    ]);
    expect(list.next).toBeNull();
    expect((await get<ObjectList>("/api/buckets/qr-codes/objects?prefix=dash/&after=dash/one.png")).objects.map((o) => o.name)).toEqual(["dash/two.png"]);
    const download = await fetchWithAccess(`/api/buckets/qr-codes/download?key=${encodeURIComponent("dash/one.png")}`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''one.png");
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
    expect((await fetchWithAccess(`/api/buckets/qr-codes/download?key=missing.png`)).status).toBe(404);
    // A binary answer reaches the explorer as base64: here the local provider's public URL, served by the app.
    const { pathname } = new URL(qrCodes.publicUrl("dash/one.png"));
    const fetched = await call({ service: "web", endpoint: "assets", method: "GET", path: pathname });
    expect([fetched.status, fetched.bodyEncoding, Buffer.from(fetched.body, "base64")]).toEqual([200, "base64", bytes]);
    expect((await fetchWithAccess(`/api/buckets/nope/objects`)).status).toBe(404);
  });
});

describe("events and traces", () => {
  test("the event stream says hello with the app's info and tells the browser to retry within a second", async () => {
    const controller = new AbortController();
    const res = await fetchWithAccess(`/api/events`, { signal: controller.signal });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes("\n\n", text.indexOf("event: hello"))) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(text).toMatch(/^retry: 1000\n\n/);
    const hello = /event: hello\ndata: (.*)\n\n/.exec(text)![1]!;
    expect(JSON.parse(hello)).toEqual(dashboard.info);
  });

  test("an explorer call to POST /shorten leaves a trace with its SQL and its publish spans", async () => {
    const result = await call({ service: "links", endpoint: "shorten", method: "POST", path: "/shorten", body: JSON.stringify({ url: "https://example.com/traced" }) });
    expect(result.status).toBe(200);
    expect(result.traceId).toMatch(/^[0-9a-f]{32}$/);
    // The outbox relay publishes right after the commit, in the request's context, maybe after its answer.
    let trace: TraceDetail | undefined;
    for (let i = 0; i < 50 && !trace?.spans.some((s) => s.kind === "publish"); i++) {
      trace = await get<TraceDetail>(`/api/traces/${result.traceId}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(trace).toMatchObject({ kind: "api", service: "links", name: "shorten", method: "POST", path: "/shorten", status: 200 });
    // Its SQL: the INSERT of the link and its event (a first check of a host may ping the database first).
    expect(trace!.spans.filter((s) => s.kind === "sql").map((s) => s.attributes["db.query.text"])).toContainEqual(expect.stringMatching(/INSERT/i));
    expect(trace!.spans.find((s) => s.kind === "publish")?.attributes["messaging.destination.name"]).toBe("url-shortened");
    const listed = await get<{ traces: { traceId: string }[] }>("/api/traces?service=links&name=shorten&status=200");
    expect(listed.traces.map((t) => t.traceId)).toContain(result.traceId);
  });

  test("traces: a list, filters checked, and 404 for a trace not kept", async () => {
    expect(await get<{ traces: unknown[] }>("/api/traces?service=url&status=error&minMs=5&limit=10")).toEqual({ traces: expect.any(Array) });
    const bad = await fetchWithAccess(`/api/traces?limit=0`);
    expect([bad.status, ((await bad.json()) as { code: string }).code]).toEqual([400, "invalid_argument"]);
    const gone = await fetchWithAccess(`/api/traces/0123456789abcdef0123456789abcdef`);
    expect([gone.status, ((await gone.json()) as { code: string }).code]).toEqual([404, "not_found"]);
  });
});

describe("the front end", () => {
  test("without a build, / says how to build it; API paths stay JSON", async () => {
    const page = await fetchWithAccess(`/`);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await page.text()).toContain("build:dashboard");
    const api = await fetchWithAccess(`/api/nope`);
    expect([api.status, await api.json()]).toEqual([404, { code: "not_found", message: "no such dashboard API", details: null }]);
  });

  test("with a build, its files are served, and index.html for / and for page paths", async () => {
    mkdirSync(path.join(frontEnd, "assets"), { recursive: true });
    writeFileSync(path.join(frontEnd, "index.html"), "<!doctype html><title>dashboard</title>");
    writeFileSync(path.join(frontEnd, "assets", "app.js"), "console.log('dashboard')");
    const built = await startDashboard({ ...dashboardOptions(), frontEndDir: frontEnd });
    try {
      const at = (route: string) => fetch(`http://127.0.0.1:${built.port}${route}`, { headers: access(built.port) });
      expect(await (await at("/")).text()).toBe("<!doctype html><title>dashboard</title>");
      expect(await (await at("/traces/abc")).text()).toBe("<!doctype html><title>dashboard</title>");
      const script = await at("/assets/app.js");
      expect([script.headers.get("content-type"), await script.text()]).toEqual(["application/javascript; charset=utf-8", "console.log('dashboard')"]);
      expect((await at("/api/nope")).status).toBe(404);
    } finally {
      await built.close();
    }
  });
});

function dashboardOptions(): Parameters<typeof startDashboard>[0] {
  return { port: 0, meta: appMeta(), appRoot, appBaseUrl: app.url, appUrl: app.url, devCalls, secret, traces: traceStore(), tracing };
}
