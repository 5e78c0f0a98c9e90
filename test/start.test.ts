// The start command as a user runs it: real processes, real signals, restarts, on
// the embedded PostgreSQL that `npm start` uses when DATABASE_URL is not set.
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { appRoot } from "../runtime/internal/config/app-root.ts";
import { stopCluster } from "../runtime/internal/sql/embedded/cluster.ts";
import { spawnApp, startApp, type RunningApp, type StartFailure } from "./support/app-process.ts";
import { tempDataDir } from "../runtime/vitest/temp-dir.ts";

const dataDir = tempDataDir("start-test-");
const clusterDir = path.join(dataDir, "postgres");
// The embedded cluster is this test's own: no server, and no name prefix from the test run.
const env = { DATA_DIR: dataDir, DATABASE_URL: "", DATABASE_NAME_PREFIX: "" };

afterAll(async () => {
  await stopCluster(clusterDir); // only if a test failed midway
  rmSync(dataDir, { recursive: true, force: true });
});

const clusterRunning = () => existsSync(path.join(clusterDir, "pgdata", "postmaster.pid"));

async function json<T>(app: RunningApp, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${app.url}${route}`, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

describe("npm start", () => {
  test("keeps links and clicks across restarts, shares its cluster, and survives being killed", async () => {
    mkdirSync(path.join(dataDir, "pglite")); // left by a version that ran PGlite
    const first = await startApp(env);
    expect(first.output()).toMatch(/embedded PostgreSQL started/);
    expect(first.output()).toMatch(/found data of the earlier embedded engine \(PGlite\), which is no longer read/);
    expect(first.output()).toMatch(/"database":"embedded PostgreSQL in [^"]*postgres, databases analytics, moderation, orders, transfers, url, urlb, users, webhooks, workspaces,/);
    expect(first.output()).toContain('"cron":["cleanup-stale-urls","daily-report","rollup-click-analytics","sweep-outbox"]');
    const link = await json<{ id: string; url: string }>(first, "/url", { url: "https://encore.dev" });
    const { code } = await json<{ code: string }>(first, "/shorten", { url: "https://example.com/kept" });
    for (let i = 0; i < 3; i++) await json(first, `/${code}`);

    // A second process on the same data joins the running cluster, and leaving does not stop it.
    const second = await startApp(env);
    expect(second.output()).not.toMatch(/embedded PostgreSQL started/);
    expect(await json(second, `/url/${link.id}`)).toEqual(link);
    expect(await second.stop("SIGINT")).toBe(0);
    expect(clusterRunning()).toBe(true);

    // The last one out writes its clicks and stops the cluster.
    expect(await first.stop("SIGTERM")).toBe(0);
    expect(first.output()).toMatch(/shutting down/);
    expect(clusterRunning()).toBe(false);

    const third = await startApp({ ...env, CRON: "off" });
    expect(third.output()).toContain('"cron":"off (CRON=off)"');
    expect(await json(third, `/url/${link.id}`)).toEqual(link);
    expect(await json(third, `/${code}/stats`)).toMatchObject({ clicks: 3 });

    // Killed, it leaves its cluster running; the next start reuses it.
    await third.stop("SIGKILL");
    expect(clusterRunning()).toBe(true);
    const fourth = await startApp(env);
    try {
      expect(fourth.output()).not.toMatch(/embedded PostgreSQL started/);
      expect(await json(fourth, `/${code}/stats`)).toMatchObject({ clicks: 3 });
    } finally {
      expect(await fourth.stop()).toBe(0);
    }
    expect(clusterRunning()).toBe(false);
  }, 180_000);

  test("a bad setting stops start-up with a message naming the variable", async () => {
    const failure = (await startApp({ ...env, PORT: "eighty" }).catch((e: unknown) => e)) as StartFailure;
    expect(failure.exitCode).toBe(1);
    expect(failure.output).toMatch(/start-up failed: invalid configuration: PORT must be an integer/);
  });

  test("in production the local object store will not start without OBJECTS_SIGNING_KEY", async () => {
    const failure = (await startApp({ ...env, NODE_ENV: "production" }).catch((e: unknown) => e)) as StartFailure;
    expect(failure.exitCode).toBe(1);
    expect(failure.output).toMatch(/start-up failed: invalid configuration: OBJECTS_SIGNING_KEY must be set in production/);
  });

  test("stopped while still starting, it finishes starting, then stops as usual and takes its cluster down", async () => {
    const app = spawnApp(env);
    // Signalled once its cluster runs but before it listens: the window a process manager's stop can hit.
    await new Promise<void>((resolve) => {
      const onData = () => {
        if (!/embedded PostgreSQL started/.test(app.output())) return;
        app.child.stdout!.off("data", onData);
        resolve();
      };
      app.child.stdout!.on("data", onData);
    });
    expect(app.output()).not.toMatch(/listening on/);
    app.child.kill("SIGTERM");
    expect(await app.exited).toBe(0);
    expect(app.output()).toMatch(/shutting down/);
    expect(clusterRunning()).toBe(false);
  }, 60_000);

  test("with OTEL_EXPORTER_OTLP_ENDPOINT it answers trace ids and exports the spans, the last of them as it stops", async () => {
    const posts: { path: string; body: { resourceSpans: OtlpResourceSpans[] } }[] = [];
    const collector = createServer((req, res) => {
      let text = "";
      req.on("data", (chunk) => (text += chunk));
      req.on("end", () => {
        posts.push({ path: req.url ?? "", body: JSON.parse(text) as { resourceSpans: OtlpResourceSpans[] } });
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    try {
      const endpoint = `http://127.0.0.1:${(collector.address() as { port: number }).port}`;
      const app = await startApp({ ...env, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
      expect(app.output()).toContain(`"tracing":"exporting to ${endpoint}/v1/traces"`);
      const res = await fetch(`${app.url}/shorten`, { method: "POST", body: JSON.stringify({ url: "https://example.com/traced" }) });
      expect(res.status).toBe(200);
      const traceId = res.headers.get("x-encore-trace-id");
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(await app.stop("SIGTERM")).toBe(0);

      expect(posts.length).toBeGreaterThan(0);
      expect(posts.every((p) => p.path === "/v1/traces")).toBe(true);
      const resources = posts.flatMap((p) => p.body.resourceSpans);
      const serviceName = resources[0]!.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue;
      expect(serviceName).toBe(path.basename(appRoot)); // the app's name: encore.app has no id
      const spans = resources.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)).filter((s) => s.traceId === traceId);
      expect(spans.map((s) => s.name)).toEqual(expect.arrayContaining(["links.shorten"]));
      const kinds = spans.map((s) => s.attributes.find((a) => a.key === "encore.span.kind")?.value.stringValue);
      expect(kinds).toEqual(expect.arrayContaining(["request", "handler", "sql"]));
    } finally {
      await new Promise((resolve) => collector.close(resolve));
    }
  }, 60_000);
});

interface OtlpResourceSpans {
  resource: { attributes: { key: string; value: { stringValue?: string } }[] };
  scopeSpans: { spans: { traceId: string; name: string; attributes: { key: string; value: { stringValue?: string } }[] }[] }[];
}
