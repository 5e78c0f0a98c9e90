// /healthz and /__encore/healthz: on the app's real server, and on a small server whose one
// database is reached through a TCP proxy this file stops and stalls, as a database server
// that is down or does not answer.
import Fastify, { type FastifyInstance } from "fastify";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../../../test/server.ts";
import { config } from "../../config/mod.ts";
import { PostgresDriver } from "../../sql/postgres-driver.ts";
import { errorHandler } from "../pipeline/errors.ts";
import { registerHealth } from "./health.ts";

interface EncoreHealth {
  code: string;
  message: string;
  details: {
    app_slug: string;
    env_name: string;
    app_revision: string;
    encore_compiler: string;
    deploy_id: string;
    checks: { name: string; passed: boolean; error?: string }[];
    enabled_experiments: string[];
  };
}

describe("on the app's server", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  test("/__encore/healthz answers 200 in Encore's shape, with the app, its environment and its checks", async () => {
    const res = await fetch(`${server.url}/__encore/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as EncoreHealth;
    expect(body).toMatchObject({
      code: "ok",
      // Not linked to Encore Cloud (encore.app has no id): the app is called after its folder.
      details: { app_slug: path.basename(config().appRoot), env_name: "self-hosted", app_revision: "", encore_compiler: "", deploy_id: "", enabled_experiments: [] },
    });
    expect(Object.keys(body.details)).toEqual(["app_slug", "env_name", "app_revision", "encore_compiler", "deploy_id", "checks", "enabled_experiments"]);
    expect(body.details.checks.at(-1)).toEqual({ name: "shutdown", passed: true });
    expect(body.details.checks.every((c) => c.passed)).toBe(true);
  });

  test.each(["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])("/__encore/healthz answers %s too, whatever its body", async (method) => {
    const res = await fetch(`${server.url}/__encore/healthz`, { method, body: "\u0000not json{", headers: { "content-type": "application/x-odd" } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as EncoreHealth).code).toBe("ok");
  });

  test("HEAD /__encore/healthz gives the status without a body", async () => {
    const res = await fetch(`${server.url}/__encore/healthz`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  test("/livez answers 200 without asking any database", async () => {
    const res = await fetch(`${server.url}/livez`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ status: "alive" });
  });

  test("/healthz keeps its own shape", async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; databases: Record<string, string> };
    expect(Object.keys(body)).toEqual(["status", "databases"]);
    expect(body.status).toBe("ok");
  });
});

/** A TCP proxy to PostgreSQL that can refuse connections (server down) or stop answering on them (server hung). */
class DatabaseProxy {
  readonly #sockets = new Set<net.Socket>();
  readonly #links = new Set<{ client: net.Socket; upstream: net.Socket }>();
  #server: net.Server | undefined;
  #hung = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<void> {
    this.#hung = false;
    this.#server = net.createServer((client) => this.#accept(client));
    await new Promise<void>((resolve) => this.#server!.listen(this.port, "127.0.0.1", resolve));
    this.port = (this.#server.address() as net.AddressInfo).port;
  }

  /** Down: connections are refused, and those open are cut. */
  async stop(): Promise<void> {
    const closed = new Promise((resolve) => this.#server?.close(resolve));
    for (const socket of this.#sockets) socket.destroy();
    await closed;
  }

  /** Hung: nothing is passed on any more, on open connections or new ones, and nothing is closed. */
  hang(): void {
    this.#hung = true;
    for (const { client, upstream } of this.#links) {
      client.unpipe(upstream);
      upstream.unpipe(client);
    }
  }

  #accept(client: net.Socket): void {
    this.#track(client);
    if (this.#hung) return;
    const upstream = net.connect(this.target.port, this.target.host);
    this.#track(upstream);
    const link = { client, upstream };
    this.#links.add(link);
    upstream.on("close", () => client.destroy());
    client.on("close", () => {
      upstream.destroy();
      this.#links.delete(link);
    });
    client.pipe(upstream).pipe(client);
  }

  #track(socket: net.Socket): void {
    this.#sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => this.#sockets.delete(socket));
  }
}

describe("with its database down or hung", () => {
  const serverUrl = new URL(config().databaseUrl!);
  const proxy = new DatabaseProxy({ host: serverUrl.hostname, port: Number(serverUrl.port) });
  let driver: PostgresDriver;
  let server: FastifyInstance;
  let stopping = false;

  beforeAll(async () => {
    await proxy.start();
    const throughProxy = new URL(serverUrl);
    throughProxy.host = `127.0.0.1:${proxy.port}`;
    driver = await PostgresDriver.open(throughProxy.href, "postgres", { onIdleError: () => {} });
    server = Fastify();
    server.setErrorHandler(errorHandler(false));
    await registerHealth(server, { shuttingDown: () => stopping, databases: () => [{ name: "main", driver }] });
    await server.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await proxy.stop();
    await driver.close();
  });

  const url = (path: string) => `http://127.0.0.1:${(server.server.address() as net.AddressInfo).port}${path}`;

  async function probe(path: string): Promise<{ status: number; body: unknown; ms: number }> {
    const started = Date.now();
    const res = await fetch(url(path), { signal: AbortSignal.timeout(10_000) });
    return { status: res.status, body: await res.json(), ms: Date.now() - started };
  }

  test("up: both paths answer 200", async () => {
    expect((await probe("/__encore/healthz")).body).toMatchObject({
      code: "ok",
      details: { checks: [{ name: "database.main", passed: true }, { name: "shutdown", passed: true }] },
    });
    expect(await probe("/healthz")).toMatchObject({ status: 200, body: { status: "ok", databases: { main: "ok" } } });
  });

  test("down: 503 unavailable at once, naming the database; 200 again once it is back", async () => {
    await proxy.stop();
    try {
      const encore = await probe("/__encore/healthz");
      expect(encore.status).toBe(503);
      expect(encore.body).toMatchObject({ code: "unavailable", message: "not ready: database.main failed" });
      const check = (encore.body as EncoreHealth).details.checks[0]!;
      expect(check).toMatchObject({ name: "database.main", passed: false });
      expect(check.error).toBe("database postgres is unavailable"); // the driver's word for a refused connection
      // Refused is known at once: no waiting for the check's one-second limit.
      expect(encore.ms).toBeLessThan(900);
      const own = await probe("/healthz");
      expect(own).toMatchObject({ status: 503, body: { status: "unavailable" } });
      // Alive all the same: a liveness probe must not restart the process for an outage.
      expect(await probe("/livez")).toMatchObject({ status: 200, body: { status: "alive" } });
    } finally {
      await proxy.start();
    }
    await expect.poll(async () => (await probe("/__encore/healthz")).status, { timeout: 10_000 }).toBe(200);
  });

  test("hung: 503 unavailable within the check's one-second limit", async () => {
    proxy.hang();
    try {
      const encore = await probe("/__encore/healthz");
      expect(encore.status).toBe(503);
      expect((encore.body as EncoreHealth).details.checks[0]).toEqual({ name: "database.main", passed: false, error: "no answer within 1000 ms" });
      expect(encore.ms).toBeLessThan(3_000); // one second, and room for a loaded machine
    } finally {
      await proxy.stop();
      await proxy.start();
    }
    await expect.poll(async () => (await probe("/__encore/healthz")).status, { timeout: 10_000 }).toBe(200);
  });

  test("from the stop signal on: 503 shutting_down on both paths, without asking the database", async () => {
    proxy.hang(); // a database check would take a second: the answer must not
    stopping = true;
    try {
      const encore = await probe("/__encore/healthz");
      expect(encore.status).toBe(503);
      expect(encore.body).toMatchObject({ code: "shutting_down", details: { checks: [{ name: "shutdown", passed: false }] } });
      expect(encore.ms).toBeLessThan(900);
      expect(await probe("/healthz")).toMatchObject({ status: 503, body: { status: "shutting_down", databases: {} } });
      const live = await probe("/livez"); // still serving: the stop is under way
      expect(live).toMatchObject({ status: 200, body: { status: "alive" } });
      expect(live.ms).toBeLessThan(900);
    } finally {
      stopping = false;
      await proxy.stop();
      await proxy.start();
    }
  });
});
