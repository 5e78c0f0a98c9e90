// Tracing on, end to end: a real server (endpoints described by hand, as in server/http-server.test.ts),
// real PostgreSQL for SQL and pub/sub, local object storage, a real cron store, and a real
// OTLP/HTTP receiver (node:http) that the exporter sends to. Calls through ~encore/clients
// look endpoints up in the registry, which here serves this file's endpoints (auth.test.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import log, { LogLevel } from "../../encore.dev/log/mod.ts";
import { Topic } from "../../encore.dev/pubsub/topic.ts";
import { currentRequest } from "../../encore.dev/req-meta.ts";
import { CacheCluster, CacheMiss, IntKeyspace, StringKeyspace } from "../../encore.dev/storage/cache/mod.ts";
import { Bucket } from "../../encore.dev/storage/objects/bucket.ts";
import { SQLDatabase } from "../../encore.dev/storage/sqldb/mod.ts";
import { callEndpoint } from "../calls/api-call.ts";
import { config } from "../config/mod.ts";
import { CronStore } from "../cron/run-store.ts";
import { CronScheduler, type ScheduledJob } from "../cron/scheduler.ts";
import { cronDatabaseName } from "../cron/schema.ts";
import { APIError } from "../errors/api-error.ts";
import type { AuthHandlerMeta, EndpointMeta, JSONSchema, RequestMeta } from "../meta/types.ts";
import { declareSubscription, startPubSub, stopPubSub } from "../pubsub/mod.ts";
import { subscriptionSpec } from "../pubsub/specs.ts";
import type { AuthHandlerEntry, Endpoint } from "../registry/endpoints.ts";
import type { RequestMeta as CurrentRequest } from "../reqtrack/meta.ts";
import { buildHttpServer } from "../server/http-server.ts";
import { openDatabase } from "../sql/databases.ts";
import type { SpanRecord, TraceDetail, TraceSummary } from "./records.ts";
import { startTracing, stopTracing, traceStore } from "./mod.ts";

const registry = vi.hoisted(() => ({ endpoints: new Map<string, unknown>() }));
vi.mock("../registry/endpoints.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../registry/endpoints.ts")>()),
  loadEndpoints: async () => registry.endpoints,
}));

const str: JSONSchema = { type: "string" };
const num: JSONSchema = { type: "number" };
const obj = (properties: Record<string, JSONSchema>, required: string[] = []): JSONSchema => ({ type: "object", properties, required });

// ---- What the handlers use: real engines.

const db = new SQLDatabase("rt_tracing");
const topic = new Topic<{ name: string }>("rt-trace", { deliveryGuarantee: "at-least-once" });
const files = new Bucket("rt-trace-files");
const cache = new CacheCluster("rt-trace-cache");
const names = new StringKeyspace<string>(cache, { keyPattern: "name/:key" });
const counts = new IntKeyspace<string>(cache, { keyPattern: "count/:key" });
/** LOG_LEVEL is silent in tests: this logger's lines pass its own level, the default logger's do not. */
const loud = log.withLevel(LogLevel.Info).with({ component: "worker" });

const seen: { work?: CurrentRequest; inner?: CurrentRequest; delivery?: CurrentRequest } = {};
let delivered: () => void = () => {};
const deliveryDone = new Promise<void>((resolve) => (delivered = resolve));

declareSubscription({
  spec: subscriptionSpec("rt-trace", "rt-trace-sub", {}),
  service: "svc",
  handler: async () => {
    seen.delivery = currentRequest();
    loud.info("delivered");
    await db.queryRow`SELECT 1 AS one`;
    delivered();
  },
});

// ---- The app: endpoints and an auth handler, described by hand.

function endpoint(name: string, partial: Partial<EndpointMeta>, handler: unknown): Endpoint {
  const meta: EndpointMeta = {
    service: "svc", name, kind: "typed", file: "svc/api.ts", line: 1, doc: null, expose: true, auth: false, methods: ["POST"],
    path: `/${name}`, pathParams: [], tags: [], sensitive: false, request: null, response: null, ...partial,
  };
  return { meta, handler };
}
const bodyOf = (fields: Record<string, JSONSchema>): RequestMeta => ({
  fields: Object.keys(fields).map((name) => ({ name, location: "body", wireName: name, optional: false })),
  path: null, query: null, headers: null, body: obj(fields, Object.keys(fields)), full: obj(fields, Object.keys(fields)),
});

let publishedId = "";
const endpoints: Endpoint[] = [
  endpoint("work", { request: bodyOf({ name: str }), response: obj({ n: num }) }, async ({ name }: { name: string }) => {
    seen.work = currentRequest();
    log.info("not recorded: below LOG_LEVEL");
    loud.info("working", { name, detail: { attempt: 1, ok: true } });
    await db.exec`INSERT INTO items (name) VALUES (${name})`;
    const row = await db.queryRow<{ n: number }>`SELECT count(*) AS n FROM items`;
    publishedId = await topic.publish({ name });
    await callEndpoint("svc", "inner", { n: row!.n });
    await files.upload(`${name}.txt`, Buffer.from(name));
    return { n: row!.n };
  }),
  endpoint("inner", { expose: false, request: bodyOf({ n: num }), response: obj({ n: num }) }, async ({ n }: { n: number }) => {
    seen.inner = currentRequest();
    return (await db.queryRow<{ n: number }>`SELECT ${n}::int AS n`)!;
  }),
  endpoint("cached", { methods: ["GET"] }, async () => {
    await names.get("ada"); // a miss
    await names.set("ada", "Ada Lovelace");
    await names.get("ada"); // a hit
    await counts.increment("ada", 2);
    await names.replace("nobody", "x").catch((err: unknown) => {
      if (!(err instanceof CacheMiss)) throw err;
    });
  }),
  endpoint("fail", { methods: ["GET"] }, async () => {
    throw APIError.permissionDenied("not for you");
  }),
  endpoint("raw", { kind: "raw", methods: ["GET"], path: "/raw/:id", pathParams: [{ name: "id", wildcard: false }] }, (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("raw");
  }),
  endpoint("rawFail", { kind: "raw", methods: ["GET"], path: "/raw-fail" }, () => {
    throw APIError.notFound("nothing here");
  }),
  endpoint("rawPost", { kind: "raw", methods: ["POST"], path: "/raw-post" }, (req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    // The body's events come from the connection: the query must still land in this request's trace.
    req.on("end", () => {
      void db.queryRow`SELECT length(${body}::text) AS n`.then((row) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(row));
      });
    });
  }),
];
for (const e of endpoints) registry.endpoints.set(`${e.meta.service}.${e.meta.name}`, e);

const authMeta: AuthHandlerMeta = {
  service: "gate", name: "auth", exportName: "auth", file: "gate/auth.ts", line: 1,
  params: {
    fields: [{ name: "authorization", location: "header", wireName: "authorization", optional: true }],
    path: null, query: null, headers: obj({ authorization: str }), body: null, full: obj({ authorization: str }),
  },
  authData: obj({ userID: str }, ["userID"]),
  gateway: { file: "gate/auth.ts", line: 2 },
};
const authEntry: AuthHandlerEntry = {
  meta: authMeta,
  handler: async (p: { authorization?: string }) => (p.authorization === "Bearer alice" ? { userID: "alice" } : null),
};

// ---- A collector: what the exporter posts, as it arrives.

const exported: { path: string; contentType: string; body: OtlpBody }[] = [];
const collector: Server = createServer((req, res) => {
  let text = "";
  req.on("data", (chunk) => (text += chunk));
  req.on("end", () => {
    exported.push({ path: req.url ?? "", contentType: req.headers["content-type"] ?? "", body: JSON.parse(text) as OtlpBody });
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  });
});

let server: FastifyInstance;
let base = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  const { port } = collector.address() as { port: number };
  const started = await startTracing({
    keep: {},
    otlpTracesUrl: `http://127.0.0.1:${port}/v1/traces`,
    serviceName: "trace-test",
    environment: "test",
    messagingSystem: "postgresql",
  });
  expect(started).toBe(true);
  await db.exec`CREATE TABLE items (name text NOT NULL)`; // outside any trace: no span
  await startPubSub();
  server = await buildHttpServer(endpoints, config(), { auth: authEntry });
  await server.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(server.server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await server?.close();
  await stopPubSub(1000);
  await stopTracing(1000);
  await new Promise((resolve) => collector.close(resolve));
});

/** The trace once it is finished (its root span ends as the response closes, just after the client has it). */
async function finished(traceId: string): Promise<TraceDetail> {
  for (let i = 0; i < 200; i++) {
    const found = traceStore()!.get(traceId);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`trace ${traceId} never finished`);
}

const byKind = (t: TraceDetail, kind: SpanRecord["kind"]) => t.spans.filter((s) => s.kind === kind);
const one = (t: TraceDetail, kind: SpanRecord["kind"], name?: string) => {
  const found = byKind(t, kind).filter((s) => name === undefined || s.name === name);
  expect(found, `${kind} ${name ?? ""}`).toHaveLength(1);
  return found[0]!;
};

describe("tracing cache operations", () => {
  test("each operation is a cache span under the handler: operation, cluster, keyspace, key and result", async () => {
    const res = await fetch(`${base}/cached`);
    expect(res.status).toBe(200);
    const t = await finished(res.headers.get("x-encore-trace-id")!);
    const handler = one(t, "handler", "svc.cached");
    const spans = byKind(t, "cache").sort((a, b) => a.startMs - b.startMs);
    expect(spans.map((s) => [s.name, s.attributes["encore.cache.result"]])).toEqual([
      ["get name/ada", "miss"],
      ["set name/ada", "ok"],
      ["get name/ada", "hit"],
      ["increment count/ada", "ok"],
      ["replace name/nobody", "miss"],
    ]);
    for (const span of spans) expect(span).toMatchObject({ parentSpanId: handler.spanId, service: "svc", error: null });
    expect(spans[3]!.attributes).toMatchObject({
      "encore.span.kind": "cache",
      "encore.cache.cluster": "rt-trace-cache",
      "encore.cache.keyspace": "count/:key",
      "encore.cache.operation": "increment",
      "encore.cache.key": "count/ada",
      "encore.cache.write": true,
    });
  });
});

describe("tracing an API call", () => {
  let workTrace: TraceDetail;

  test("the response carries the trace id, and the trace has request, auth, handler, sql, publish, call, objects spans and the log line", async () => {
    const res = await fetch(`${base}/work`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer alice" },
      body: JSON.stringify({ name: "first" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ n: 1 });
    const traceId = res.headers.get("x-encore-trace-id")!;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    workTrace = await finished(traceId);

    expect(workTrace).toMatchObject({ traceId, kind: "api", service: "svc", name: "work", method: "POST", path: "/work", status: 200, error: null });
    const root = one(workTrace, "request");
    expect(root).toMatchObject({ name: "svc.work", parentSpanId: null, service: "svc" });
    expect(root.attributes).toMatchObject({ "http.request.method": "POST", "url.path": "/work", "http.response.status_code": 200, "encore.span.kind": "request" });
    expect(one(workTrace, "auth")).toMatchObject({ name: "gate.auth", parentSpanId: root.spanId, service: "gate" });
    const handler = one(workTrace, "handler", "svc.work");
    expect(handler.parentSpanId).toBe(root.spanId);

    const insert = byKind(workTrace, "sql").find((s) => String(s.attributes["db.query.text"]).startsWith("INSERT INTO items"))!;
    expect(insert).toMatchObject({ parentSpanId: handler.spanId, service: "svc", error: null });
    expect(insert.attributes).toMatchObject({ "db.system.name": "postgresql", "db.namespace": "rt_tracing", "db.operation.name": "INSERT" });
    const count = byKind(workTrace, "sql").find((s) => String(s.attributes["db.query.text"]).includes("count(*)"))!;
    expect(count.attributes["db.response.returned_rows"]).toBe(1);

    expect(one(workTrace, "publish")).toMatchObject({ name: "publish rt-trace", parentSpanId: handler.spanId });
    expect(one(workTrace, "publish").attributes).toMatchObject({
      "messaging.system": "postgresql",
      "messaging.destination.name": "rt-trace",
      "messaging.message.id": publishedId,
    });
    const call = one(workTrace, "call");
    expect(call).toMatchObject({ name: "svc.inner", parentSpanId: handler.spanId });
    const inner = one(workTrace, "handler", "svc.inner");
    expect(inner.parentSpanId).toBe(call.spanId);
    expect(byKind(workTrace, "sql").filter((s) => s.parentSpanId === inner.spanId)).toHaveLength(1);
    expect(one(workTrace, "objects")).toMatchObject({ name: "upload rt-trace-files/first.txt", parentSpanId: handler.spanId });
    expect(one(workTrace, "objects").attributes).toMatchObject({ "encore.objects.bucket": "rt-trace-files", "encore.objects.key": "first.txt" });

    expect(workTrace.logs).toEqual([
      { spanId: handler.spanId, timeMs: expect.any(Number), level: "info", message: "working", fields: { component: "worker", name: "first", detail: { attempt: 1, ok: true } } },
    ]);
    expect(workTrace.spanCount).toBe(workTrace.spans.length);
    expect(workTrace.logCount).toBe(1);
  });

  test("currentRequest().trace names the trace: the request's root span, and for a called endpoint its handler under the call", () => {
    const root = one(workTrace, "request");
    expect(seen.work?.trace).toEqual({ traceId: workTrace.traceId, spanId: root.spanId });
    expect(seen.inner?.trace).toEqual({
      traceId: workTrace.traceId,
      spanId: one(workTrace, "handler", "svc.inner").spanId,
      parentSpanId: one(workTrace, "call").spanId,
    });
  });

  test("the subscription's delivery is a trace of its own, with the message id and attempt", async () => {
    await deliveryDone;
    const traceId = seen.delivery!.trace!.traceId;
    expect(traceId).not.toBe(workTrace.traceId);
    const delivery = await finished(traceId);
    expect(delivery).toMatchObject({ kind: "pubsub", service: "svc", name: "rt-trace-sub", method: null, status: null, error: null });
    const root = one(delivery, "message");
    expect(root).toMatchObject({ name: "rt-trace/rt-trace-sub", parentSpanId: null });
    expect(root.attributes).toMatchObject({
      "messaging.message.id": publishedId,
      "messaging.destination.name": "rt-trace",
      "messaging.destination.subscription.name": "rt-trace-sub",
      "encore.pubsub.delivery_attempt": 1,
    });
    expect(seen.delivery).toMatchObject({ type: "pubsub-message", messageId: publishedId, trace: { traceId, spanId: root.spanId } });
    expect(one(delivery, "sql").parentSpanId).toBe(root.spanId);
    expect(delivery.logs.map((l) => l.message)).toEqual(["delivered"]);
  });

  test("raw endpoints, on the fast lane and with a body, are traced; failures are the trace's error", async () => {
    const raw = await fetch(`${base}/raw/abc?x=1`);
    expect(await raw.text()).toBe("raw");
    const rawTrace = await finished(raw.headers.get("x-encore-trace-id")!);
    expect(rawTrace).toMatchObject({ name: "raw", method: "GET", path: "/raw/abc", status: 200, error: null });
    expect(rawTrace.spans.map((s) => s.kind)).toEqual(["request", "handler"]);

    const posted = await fetch(`${base}/raw-post`, { method: "POST", body: "hello" });
    expect(await posted.json()).toEqual({ n: 5 });
    const postTrace = await finished(posted.headers.get("x-encore-trace-id")!);
    expect(one(postTrace, "sql").attributes["db.query.text"]).toContain("length(");

    const rawFail = await fetch(`${base}/raw-fail`);
    expect(rawFail.status).toBe(404);
    expect(await finished(rawFail.headers.get("x-encore-trace-id")!)).toMatchObject({ name: "rawFail", status: 404, error: "nothing here" });

    const fail = await fetch(`${base}/fail`);
    expect(fail.status).toBe(403);
    const failTrace = await finished(fail.headers.get("x-encore-trace-id")!);
    expect(failTrace).toMatchObject({ status: 403, error: "not for you" });
    expect(one(failTrace, "handler").error).toBe("not for you");
    expect(traceStore()!.list({ status: "error" }).map((t: TraceSummary) => t.name)).toEqual(["fail", "rawFail"]);
  });
});

describe("tracing cron runs", () => {
  test("each run is a trace of its own, the endpoint's call under it; a failed run is the trace's error", async () => {
    const store = new CronStore(await openDatabase(cronDatabaseName), { staleAfterMs: 60_000 });
    await store.migrate();
    const jobs: ScheduledJob[] = [
      { name: "rt-nightly", schedule: { kind: "every", minutes: 60 }, endpoint: { service: "svc", name: "inner" } },
      { name: "rt-broken", schedule: { kind: "every", minutes: 60 }, endpoint: { service: "svc", name: "inner" } },
    ];
    const scheduler = new CronScheduler({
      jobs,
      store,
      runJob: (job) => (job.name === "rt-broken" ? Promise.reject(new Error("disk full")) : callEndpoint("svc", "inner", { n: 7 }, { authData: null })),
      log: { info: () => {}, error: () => {} },
    });

    const ok = await scheduler.runNow("rt-nightly");
    expect(ok.result).toEqual({ n: 7 });
    const run = await finished(ok.traceId!);
    expect(run).toMatchObject({ kind: "cron", name: "rt-nightly", service: "svc", error: null, status: null });
    const root = one(run, "cron");
    expect(root.attributes).toMatchObject({ "encore.cron.job": "rt-nightly", "encore.cron.trigger": "manual" });
    const call = one(run, "call");
    expect(call.parentSpanId).toBe(root.spanId);
    expect(one(run, "handler").parentSpanId).toBe(call.spanId);
    expect(one(run, "sql").parentSpanId).toBe(one(run, "handler").spanId);

    const broken = await scheduler.runNow("rt-broken");
    expect(broken.run?.outcome).toBe("failed");
    expect(await finished(broken.traceId!)).toMatchObject({ kind: "cron", name: "rt-broken", error: "disk full" });
  });
});

// Last: stopping tracing is what sends the spans still waiting in the batch processor.
describe("OTLP export", () => {
  test("a collector receives the spans as OTLP JSON, with the semantic-convention attributes and the delivery's link to the publish", async () => {
    const workTraceId = traceStore()!.list({ name: "work" })[0]!.traceId;
    await stopTracing(5000);
    expect(exported.length).toBeGreaterThan(0);
    for (const post of exported) {
      expect(post.path).toBe("/v1/traces");
      expect(post.contentType).toMatch(/^application\/json/);
    }
    const resources = exported.flatMap((p) => p.body.resourceSpans);
    expect(valuesOf(resources[0]!.resource.attributes)).toMatchObject({ "service.name": "trace-test", "deployment.environment.name": "test" });
    const spans = resources.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    const work = spans.filter((s) => s.traceId === workTraceId);
    const find = (kind: string, name?: string) => work.find((s) => valuesOf(s.attributes)["encore.span.kind"] === kind && (name === undefined || s.name === name))!;

    expect(valuesOf(find("request").attributes)).toMatchObject({
      "http.request.method": "POST",
      "url.path": "/work",
      "http.route": "/work",
      "http.response.status_code": 200,
      "encore.service": "svc",
      "encore.endpoint": "work",
    });
    const insert = work.find((s) => String(valuesOf(s.attributes)["db.query.text"]).startsWith("INSERT"))!;
    expect(valuesOf(insert.attributes)).toMatchObject({ "db.system.name": "postgresql", "db.namespace": "rt_tracing" });
    const handler = find("handler", "svc.work");
    expect(handler.events.map((e) => e.name)).toContain("log");
    const publish = find("publish");
    expect(valuesOf(publish.attributes)).toMatchObject({ "messaging.system": "postgresql", "messaging.destination.name": "rt-trace" });

    const message = spans.find((s) => s.name === "rt-trace/rt-trace-sub")!;
    expect(message.traceId).not.toBe(workTraceId);
    expect(message.links).toEqual([expect.objectContaining({ traceId: workTraceId, spanId: publish.spanId })]);
  });
});

// ---- OTLP/JSON, as much of it as the test reads.

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  name: string;
  attributes: OtlpAttribute[];
  events: { name: string }[];
  links: { traceId: string; spanId: string }[];
}
interface OtlpBody {
  resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

function valuesOf(attributes: OtlpAttribute[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of attributes) {
    out[key] = value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue));
  }
  return out;
}
