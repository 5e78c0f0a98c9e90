import Fastify, { type FastifyInstance } from "fastify";
import { randomUUID } from "node:crypto";
import { APIError } from "../errors/api-error.ts";
import { appName } from "../meta/app-name.ts";
import type { AppMeta } from "../meta/types.ts";
import { errorHandler } from "../server/pipeline/errors.ts";
import type { DevCalls } from "../server/runtime-routes/dev-calls.ts";
import type { ConsoleLogin, ConsoleOff } from "../sql/console-login.ts";
import type { TraceStore } from "../tracing/records.ts";
import type { AppInfo } from "./api.ts";
import { registerAccess } from "./access.ts";
import { registerBuckets } from "./buckets.ts";
import { registerCaches } from "./caches.ts";
import { catalog } from "./catalog.ts";
import { registerCron } from "./cron.ts";
import { registerDatabases } from "./databases.ts";
import { registerEvents } from "./events.ts";
import { registerExplorer } from "./explorer.ts";
import { flow } from "./flow.ts";
import { registerFrontEnd } from "./front-end.ts";
import { registerGuard } from "./guard.ts";
import { registerPubSub } from "./pubsub.ts";
import { registerTraces } from "./traces.ts";

export interface DashboardOptions {
  /** Its own port, on loopback; 0 for any free one. */
  readonly port: number;
  readonly meta: AppMeta;
  readonly appRoot: string;
  /** Where the app serves, as the page shows it ("http://localhost:4000"). */
  readonly appBaseUrl: string;
  /** Where the explorer's calls go: the app's own port, on loopback. */
  readonly appUrl: string;
  /** This boot's secret for calls to internal endpoints (the app server was built with it). */
  readonly devCalls: DevCalls;
  /** The secret `run` drew when it started: the dashboard answers only requests that carry it (access.ts). */
  readonly secret: string;
  readonly traces: TraceStore | null;
  readonly tracing: AppInfo["tracing"];
  /** The front end's build; the runtime package's dashboard/dist by default. */
  readonly frontEndDir?: string;
  /** How the SQL console logs in; the process's server (its own read-only role) by default. */
  readonly consoleLogin?: () => Promise<ConsoleLogin | ConsoleOff>;
}

export interface Dashboard {
  readonly port: number;
  /** "http://localhost:<port>" */
  readonly url: string;
  readonly info: AppInfo;
  close(): Promise<void>;
}

/**
 * The development dashboard (`encore-selfhost run`): its own small server in the app's
 * process, on loopback only, beside the app's. Its API (api.ts) reads the app's metadata,
 * the trace ring, pub/sub, cron, the databases, buckets and caches directly, and calls endpoints
 * over HTTP through the app's own server. guard.ts keeps other sites out, access.ts everyone
 * but the developer who holds `run`'s secret.
 */
export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  const { meta } = options;
  const info: AppInfo = {
    appName: appName(meta, options.appRoot),
    appBaseUrl: options.appBaseUrl,
    bootId: randomUUID(),
    startedAt: new Date().toISOString(),
    tracing: options.tracing,
  };
  const app = Fastify({ logger: false, forceCloseConnections: true });
  let port = options.port;
  registerGuard(app, () => port);
  registerAccess(app, options.secret, () => port);
  app.setErrorHandler(errorHandler(true)); // the developer's own machine: internal messages are theirs to read
  app.setNotFoundHandler(() => {
    throw APIError.notFound("no such dashboard API");
  });
  app.get("/api/app", async () => info);
  const catalogOnce = once(() => catalog(meta));
  const flowOnce = once(() => flow(meta));
  app.get("/api/catalog", async () => catalogOnce());
  app.get("/api/flow", async () => flowOnce());
  registerExplorer(app, meta, options.appUrl, options.devCalls);
  registerTraces(app, options.traces);
  registerEvents(app, info, options.traces);
  registerPubSub(app, meta);
  registerCron(app, meta);
  registerDatabases(app, meta, options.appRoot, options.consoleLogin);
  registerBuckets(app, meta);
  registerCaches(app, meta);
  await registerFrontEnd(app, options.frontEndDir);
  await listenOnLoopback(app, options.port);
  const address = app.server.address();
  port = typeof address === "object" && address ? address.port : options.port;
  return { port, url: `http://localhost:${port}`, info, close: () => app.close() };
}

/** "localhost": 127.0.0.1, and ::1 where the machine has it, on one port; never another interface. */
async function listenOnLoopback(app: FastifyInstance, port: number): Promise<void> {
  await app.listen({ host: "localhost", port });
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
