// Metrics on, end to end in one process: a real server (endpoints described by hand, as in
// http-server.test.ts), pub/sub on the test's PostgreSQL, a real cron store, the app's
// encore.dev/metrics classes with a fixture app's metadata from the real parser; each
// scrape read by a Prometheus text-format parser.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Counter, CounterGroup, Gauge } from "../../../encore.dev/metrics/mod.ts";
import { Topic } from "../../../encore.dev/pubsub/topic.ts";
import { currentRequest } from "../../../encore.dev/req-meta.ts";
import { hasSeries, parseScrape, valueOf, type Scrape } from "../../../test/prometheus.ts";
import { config } from "../../config/mod.ts";
import { CronStore } from "../../cron/run-store.ts";
import { CronScheduler, type ScheduledJob } from "../../cron/scheduler.ts";
import { cronDatabaseName } from "../../cron/schema.ts";
import { APIError } from "../../errors/api-error.ts";
import { useMetricsMeta } from "../../metrics/app-metric.ts";
import { startMetrics, stopMetrics, type Meter } from "../../metrics/mod.ts";
import { fixture } from "../../../test/parser-fixtures.ts";
import { parseApp } from "../../parser/mod.ts";
import { declareSubscription, runningPubSub, startPubSub, stopPubSub } from "../../pubsub/mod.ts";
import { subscriptionSpec } from "../../pubsub/specs.ts";
import type { Endpoint } from "../../registry/endpoints.ts";
import { openDatabase } from "../../sql/databases.ts";
import { testEndpoint } from "../../../test/endpoints.ts";
import { buildHttpServer } from "../http-server.ts";
import { listenForMetrics } from "./metrics.ts";

const token = "metrics-test-token-0123456789";
const bearer = { authorization: `Bearer ${token}` };

// ---- Pub/sub: one subscription that fails its first attempt, one that fails both it has.

const topic = new Topic<{ n: number }>("rt-metrics", { deliveryGuarantee: "at-least-once" });
const attempts = new Map<string, number>();
declareSubscription({
  spec: subscriptionSpec("rt-metrics", "flaky", { retryPolicy: { minBackoff: "1s", maxBackoff: "1s" } }),
  service: "svc",
  handler: async () => {
    const n = (attempts.get("flaky") ?? 0) + 1;
    attempts.set("flaky", n);
    if (n === 1) throw new Error("first attempt fails");
  },
});
declareSubscription({
  spec: subscriptionSpec("rt-metrics", "doomed", { retryPolicy: { maxRetries: 1, minBackoff: "1s", maxBackoff: "1s" } }),
  service: "svc",
  handler: async () => {
    throw new Error("always fails");
  },
});

// ---- The app's metrics, as a fixture app declares them (its metadata: who uses which).

const queueLength = new Gauge("queue_length"); // used by svc alone
const ordersProcessed = new Counter("orders_processed"); // used by svc and other
const jobsProcessed = new CounterGroup<{ jobType: string; priority: number; success: boolean; region: string }>("jobs_processed");

// ---- Endpoints: typed, raw on the fast lane (GET) and through Fastify (POST), static files.

const withRequestId = { type: "object", properties: { requestId: { type: "string" } }, required: ["requestId"] } as const;

const root = mkdtempSync(path.join(tmpdir(), "metrics-static-"));
mkdirSync(path.join(root, "site"));
writeFileSync(path.join(root, "site", "app.js"), "console.log(1)");

const endpoints: Endpoint[] = [
  testEndpoint("hello", { response: withRequestId }, async () => {
    ordersProcessed.increment();
    jobsProcessed.with({ jobType: "email", priority: 1.7, success: true, region: "eu" }).increment(2);
    const req = currentRequest();
    return { requestId: req?.type === "api-call" ? req.headers["x-request-id"] : "none" };
  }),
  testEndpoint("refuse", {}, async () => {
    throw APIError.failedPrecondition("not now");
  }),
  testEndpoint("resolve", { kind: "raw", path: "/r/:code", pathParams: [{ name: "code", wildcard: false }] }, (req: IncomingMessage, res: ServerResponse) => {
    const known = req.url !== "/r/missing";
    res.writeHead(known ? 200 : 404, { "content-type": "text/plain" });
    res.end(known ? "found" : "no such code");
  }),
  testEndpoint("ownId", { kind: "raw", path: "/own-id" }, (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { "X-Request-Id": "the-handler-s-own", "x-unset": undefined });
    res.end();
  }),
  testEndpoint("upload", { kind: "raw", methods: ["POST"], path: "/upload" }, (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(201);
    res.end();
  }),
  testEndpoint("site", {
    service: "web", kind: "static", methods: ["GET", "HEAD"], path: "/site/*path", pathParams: [{ name: "path", wildcard: true }], static: { dir: "site" },
  }, {}),
];

let meter: Meter;
let server: FastifyInstance;
let base = "";
let scheduler: CronScheduler<ScheduledJob>;

beforeAll(async () => {
  useMetricsMeta(parseApp(fixture("metrics/valid")).metrics);
  meter = await startMetrics({ runningPubSub }); // before the routes are compiled, as at boot
  await startPubSub();
  server = await buildHttpServer(endpoints, { ...config(), appRoot: root, metrics: { port: null, token } });
  await server.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(server.server.address() as { port: number }).port}`;
  const store = new CronStore(await openDatabase(cronDatabaseName), { staleAfterMs: 60_000 });
  await store.migrate();
  const jobs: ScheduledJob[] = [
    { name: "rt-fine", schedule: { kind: "every", minutes: 60 } },
    { name: "rt-broken", schedule: { kind: "every", minutes: 60 } },
  ];
  scheduler = new CronScheduler({
    jobs,
    store,
    runJob: (job) => (job.name === "rt-broken" ? Promise.reject(new Error("disk full")) : Promise.resolve(null)),
    log: { info: () => {}, error: () => {} },
  });
}, 60_000);

afterAll(async () => {
  await scheduler?.stop(0);
  await server?.close();
  await stopPubSub(1000);
  stopMetrics();
  rmSync(root, { recursive: true, force: true });
});

async function scrape(): Promise<Scrape> {
  const res = await fetch(`${base}/metrics`, { headers: bearer });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseScrape(await res.text());
}

/** Asks again until `check` passes (effects of pub/sub deliveries arrive after the publish). */
async function eventually(check: () => Promise<void>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

const requests = (labels: Record<string, string>) => (s: Scrape) => valueOf(s, "e_requests_total", labels);
const latencyCount = (labels: Record<string, string>) => (s: Scrape) => valueOf(s, "e_request_duration_seconds", labels);

describe("GET /metrics on the app's port (METRICS_TOKEN)", () => {
  test("answers only the bearer of the token, in Encore's error format otherwise", async () => {
    const refused: Record<string, string>[] = [{}, { authorization: "Bearer wrong-token-0123456789" }, { authorization: token }];
    for (const headers of refused) {
      const res = await fetch(`${base}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: "unauthenticated", message: "a valid METRICS_TOKEN bearer token is required", details: null });
    }
  });

  test("has every built-in family, process metrics included", async () => {
    const families = await scrape();
    for (const name of [
      "e_requests_total",
      "e_request_duration_seconds",
      "e_pubsub_published_total",
      "e_pubsub_deliveries_total",
      "e_pubsub_backlog",
      "e_pubsub_in_flight",
      "e_pubsub_dead_letters",
      "e_cron_runs_total",
      "e_db_pool_connections",
      "e_db_pool_waiting",
      "e_db_pool_max",
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
      "nodejs_eventloop_lag_seconds",
    ]) {
      expect(families.has(name), name).toBe(true);
    }
    expect(families.get("e_request_duration_seconds")!.type).toBe("histogram");
  });
});

describe("request families", () => {
  test("count each response under its route's labels, never its raw path, with Encore's code and the status class", async () => {
    const before = await scrape();
    for (const code of ["abc", "def", "ghi"]) expect((await fetch(`${base}/r/${code}`)).status).toBe(200); // the raw fast lane
    expect((await fetch(`${base}/r/missing`)).status).toBe(404);
    expect((await fetch(`${base}/upload`, { method: "POST" })).status).toBe(201);
    expect((await fetch(`${base}/hello`)).status).toBe(200);
    expect((await fetch(`${base}/refuse`)).status).toBe(400);
    expect((await fetch(`${base}/site/app.js`)).status).toBe(200);
    for (const p of ["/no/such/path", "/another/unknown"]) expect((await fetch(`${base}${p}`)).status).toBe(404);
    const after = await scrape();

    const delta = (read: (s: Scrape) => number) => read(after) - read(before);
    const resolve = { service: "svc", endpoint: "resolve" };
    expect(delta(requests({ ...resolve, code: "ok", status_class: "2xx" }))).toBe(3);
    expect(delta(requests({ ...resolve, code: "not_found", status_class: "4xx" }))).toBe(1);
    expect(delta(latencyCount({ ...resolve, status_class: "2xx" }))).toBe(3);
    expect(delta(latencyCount({ ...resolve, status_class: "4xx" }))).toBe(1);
    expect(delta(requests({ service: "svc", endpoint: "upload", code: "http_201", status_class: "2xx" }))).toBe(1);
    expect(delta(requests({ service: "svc", endpoint: "hello", code: "ok", status_class: "2xx" }))).toBe(1);
    // The code the endpoint threw, not one guessed from its status (400 alone would say invalid_argument).
    expect(delta(requests({ service: "svc", endpoint: "refuse", code: "failed_precondition", status_class: "4xx" }))).toBe(1);
    expect(delta(requests({ service: "web", endpoint: "site", code: "ok", status_class: "2xx" }))).toBe(1);
    expect(delta(requests({ service: "__runtime", endpoint: "unmatched", code: "not_found", status_class: "4xx" }))).toBe(2);
    // No raw path ever becomes a label.
    for (const family of ["e_requests_total", "e_request_duration_seconds"]) {
      const labels = after.get(family)!.samples.flatMap((s) => Object.values(s.labels));
      expect(labels.filter((value) => /abc|def|ghi|missing|no\/such|unknown|app\.js/.test(value))).toEqual([]);
    }
  });
});

describe("pub/sub, cron and pool families", () => {
  test("count published messages and what became of each delivery, and report backlogs", async () => {
    const before = await scrape();
    await topic.publish({ n: 1 });
    const labels = (subscription: string, outcome: string) => ({ topic: "rt-metrics", subscription, outcome });
    await eventually(async () => {
      const after = await scrape();
      const delta = (l: Record<string, string>) => valueOf(after, "e_pubsub_deliveries_total", l) - valueOf(before, "e_pubsub_deliveries_total", l);
      expect(valueOf(after, "e_pubsub_published_total", { topic: "rt-metrics" }) - valueOf(before, "e_pubsub_published_total", { topic: "rt-metrics" })).toBe(1);
      expect(delta(labels("flaky", "retried"))).toBe(1);
      expect(delta(labels("flaky", "delivered"))).toBe(1);
      expect(delta(labels("doomed", "retried"))).toBe(1);
      expect(delta(labels("doomed", "dead_lettered"))).toBe(1);
      expect(delta(labels("doomed", "delivered"))).toBe(0);
      expect(valueOf(after, "e_pubsub_dead_letters", { topic: "rt-metrics", subscription: "doomed" })).toBeGreaterThanOrEqual(1);
      expect(hasSeries(after, "e_pubsub_backlog", { topic: "rt-metrics", subscription: "flaky" })).toBe(true);
    });
  }, 30_000);

  test("count cron runs by job and outcome", async () => {
    const before = await scrape();
    expect((await scheduler.runNow("rt-fine")).run?.outcome).toBe("succeeded");
    expect((await scheduler.runNow("rt-broken")).run?.outcome).toBe("failed");
    const after = await scrape();
    const delta = (job: string, outcome: string) => valueOf(after, "e_cron_runs_total", { job, outcome }) - valueOf(before, "e_cron_runs_total", { job, outcome });
    expect(delta("rt-fine", "succeeded")).toBe(1);
    expect(delta("rt-broken", "failed")).toBe(1);
  });

  test("report each open database's pool", async () => {
    const now = await scrape();
    const max = valueOf(now, "e_db_pool_max", { database: cronDatabaseName });
    expect(max).toBeGreaterThan(0);
    const inUse = valueOf(now, "e_db_pool_connections", { database: cronDatabaseName, state: "in_use" });
    const idle = valueOf(now, "e_db_pool_connections", { database: cronDatabaseName, state: "idle" });
    expect(inUse + idle).toBeGreaterThan(0); // the runs above opened connections
    expect(inUse + idle).toBeLessThanOrEqual(max);
    expect(hasSeries(now, "e_db_pool_waiting", { database: cronDatabaseName })).toBe(true);
  });
});

describe("encore.dev/metrics", () => {
  test("a gauge set outside any request carries the one service using it; a shared counter the request's", async () => {
    await new Promise<void>((resolve) =>
      setTimeout(() => {
        queueLength.set(7); // a timer, in no request
        ordersProcessed.increment(); // used by two services, in no request: no service to label it with, not recorded
        resolve();
      }, 1),
    );
    const before = await scrape();
    expect(valueOf(before, "queue_length", { service: "svc" })).toBe(7);
    expect((await fetch(`${base}/hello`)).status).toBe(200);
    const after = await scrape();
    expect(valueOf(after, "orders_processed", { service: "svc" }) - valueOf(before, "orders_processed", { service: "svc" })).toBe(1);
    // Label names in snake_case, numbers floored, the service added.
    const job = { job_type: "email", priority: "1", success: "true", region: "eu", service: "svc" };
    expect(valueOf(after, "jobs_processed", job) - valueOf(before, "jobs_processed", job)).toBe(2);
  });

  test("a counter ignores a decrease or what is not a number, and floors the rest; a gauge goes down", async () => {
    const labels = { jobType: "x", priority: 0, success: false, region: "us" };
    const series = { job_type: "x", priority: "0", success: "false", region: "us", service: "svc" };
    const counter = jobsProcessed.with(labels); // used by svc alone
    counter.increment(); // the series exists from here on
    const before = valueOf(await scrape(), "jobs_processed", series);
    expect(() => counter.increment(-1)).not.toThrow(); // recording a metric never fails a request
    expect(() => counter.increment(Number.NaN)).not.toThrow();
    counter.increment(2.7);
    expect(valueOf(await scrape(), "jobs_processed", series) - before).toBe(2);
    queueLength.set(-1);
    expect(valueOf(await scrape(), "queue_length", { service: "svc" })).toBe(-1);
  });
});

describe("x-request-id", () => {
  test("every kind of response carries one, unique per request", async () => {
    const responses = await Promise.all([
      fetch(`${base}/hello`), // typed
      fetch(`${base}/refuse`), // a typed endpoint's error
      fetch(`${base}/r/abc`), // raw, on the fast lane
      fetch(`${base}/r/missing`), // raw, its own 404
      fetch(`${base}/upload`, { method: "POST" }), // raw, through Fastify
      fetch(`${base}/site/app.js`), // a static file
      fetch(`${base}/no/such/path`), // no route
      fetch(`${base}/healthz`), // the runtime's own route
      fetch(`${base}/metrics`), // refused
      fetch(`${base}/hello`, { method: "DELETE" }), // no route for the method
    ]);
    const ids = responses.map((res) => res.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{8}-[0-9a-z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("a well-formed incoming X-Request-ID is kept, and handlers see the id in currentRequest().headers", async () => {
    const kept = await fetch(`${base}/hello`, { headers: { "X-Request-ID": "lb-7f3a:9c2e/1=" } });
    expect(kept.headers.get("x-request-id")).toBe("lb-7f3a:9c2e/1=");
    expect(await kept.json()).toEqual({ requestId: "lb-7f3a:9c2e/1=" });
    const made = await fetch(`${base}/hello`);
    expect(await made.json()).toEqual({ requestId: made.headers.get("x-request-id") });
    expect((await fetch(`${base}/r/abc`, { headers: { "x-request-id": "raw-lane-1" } })).headers.get("x-request-id")).toBe("raw-lane-1");
  });

  test("a handler that writes its own x-request-id (in any case) keeps it, once", async () => {
    const res = await fetch(`${base}/own-id`, { headers: { "x-request-id": "from-the-caller" } });
    expect(res.headers.get("x-request-id")).toBe("the-handler-s-own");
    expect(res.headers.has("x-unset")).toBe(false);
  });

  test("an incoming id too long or with unsafe characters is replaced", async () => {
    for (const given of ["x".repeat(129), "a b", "id;drop", "ünïcode"]) {
      const res = await fetch(`${base}/hello`, { headers: { "x-request-id": encodeURI(given) === given ? given : encodeURIComponent(given) } });
      const id = res.headers.get("x-request-id");
      expect(id).not.toBe(given);
      expect(id).toMatch(/^[A-Za-z0-9_-]{8}-[0-9a-z]+$/);
    }
  });
});

describe("METRICS_PORT: a listener of its own", () => {
  async function listening(tokenRequired: boolean): Promise<{ url: string; server: Server }> {
    const server = await listenForMetrics({ port: 0, token: tokenRequired ? token : null }, "127.0.0.1", meter);
    return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
  }

  test("serves GET /metrics, and 404 in Encore's format for anything else", async () => {
    const { server, url } = await listening(false);
    try {
      const res = await fetch(`${url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-request-id")).toBeTruthy();
      expect(parseScrape(await res.text()).has("e_requests_total")).toBe(true);
      for (const [method, p] of [["GET", "/"], ["GET", "/metrics/x"], ["POST", "/metrics"]] as const) {
        const other = await fetch(`${url}${p}`, { method });
        expect(other.status).toBe(404);
        expect(await other.json()).toEqual({ code: "not_found", message: "endpoint not found", details: null });
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("with METRICS_TOKEN too, only to its bearer", async () => {
    const { server, url } = await listening(true);
    try {
      expect((await fetch(`${url}/metrics`)).status).toBe(401);
      expect((await fetch(`${url}/metrics`, { headers: bearer })).status).toBe(200);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
