import type { FastifyInstance } from "fastify";
import type { Server } from "node:http";
import type { RuntimeConfig } from "../../config/config.ts";
import { dashboardSecretVariable } from "../../config/dashboard-secret.ts";
import { config, metricsEnabled } from "../../config/mod.ts";
import { hasCronJobs, startCron, stopCron } from "../../cron/mod.ts";
import { cronDatabaseName } from "../../cron/schema.ts";
import { appMeta } from "../../meta/load.ts";
import { rootLogger } from "../../log/root.ts";
import { stopCache } from "../../cache/mod.ts";
import { startObjects, stopObjects } from "../../objects/mod.ts";
import { hasPubSub, runningPubSub, startPubSub, stopPubSub } from "../../pubsub/mod.ts";
import { pubsubDatabaseName } from "../../pubsub/sql-schema.ts";
import { loadAuthHandler, loadEndpoints } from "../../registry/endpoints.ts";
import {
  connectServer,
  connectionsReady,
  disconnectServer,
  embeddedClusterHome,
  openDatabases,
  openedDatabases,
  physicalName,
  poolShare,
} from "../../sql/databases.ts";
import { startMetrics, stopMetrics } from "../../metrics/mod.ts";
import { startAppTracing } from "../../tracing/boot.ts";
import { stopTracing } from "../../tracing/mod.ts";
import { buildHttpServer } from "../http-server.ts";
import { createDevCalls, type DevCalls } from "../runtime-routes/dev-calls.ts";
import { listenForMetrics, metricsAddress } from "../runtime-routes/metrics.ts";
import { stopAndExit, watchStopSignals } from "./shutdown.ts";

/** The development dashboard, as `run` asks its app to serve it (cli/serve.ts). */
export interface DashboardStart {
  /** Its own loopback port; 0 for any free one. */
  readonly port: number;
  /** The secret `run` drew, which the dashboard opens for (dashboard/access.ts); null when none was handed over. */
  readonly secret: string | null;
  /** Told the dashboard's URL once it listens: serve.ts passes it on to `run`, which prints the link. */
  readonly opened?: (url: string) => void;
  /**
   * Starts it beside the app's server, which listens already (dashboard/mod.ts openDashboard);
   * null when it could not. Handed in rather than imported here: the dashboard builds on the
   * server (its error handler, the dev calls), so the server does not import it back.
   */
  readonly open: (
    server: FastifyInstance,
    cfg: RuntimeConfig,
    options: { readonly port: number; readonly secret: string; readonly devCalls: DevCalls },
  ) => Promise<RunningDashboard | null>;
}

/** What the server keeps of the dashboard it opened, to print its link and close it first on a stop. */
export interface RunningDashboard {
  readonly url: string;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Keep finished traces in memory (TRACE_BUFFER of them) for the development dashboard. */
  readonly keepTraces?: boolean;
  /** Serve the development dashboard (`run` asks for it; production never does). */
  readonly dashboard?: DashboardStart;
}

/**
 * The boot step: everything declared in the app is known from the generated
 * metadata (written beforehand by the generator), so databases are opened and
 * migrated before any app module runs.
 */
export async function startServer(options: StartOptions = {}): Promise<FastifyInstance> {
  const cfg = config();
  // From the first moment: a process manager may stop the app while it is still starting,
  // and Node's default for SIGTERM would end it without stopping the embedded cluster.
  const stopRequested = watchStopSignals(cfg.shutdownDelayMs);
  const wanted = options.dashboard;
  if (wanted && cfg.environmentType === "production") {
    throw new Error("--dashboard-port: the development dashboard is never served in production (NODE_ENV=production)");
  }
  if (wanted && wanted.secret === null) {
    throw new Error(`--dashboard-port: the development dashboard opens only with the secret encore-selfhost run hands over in ${dashboardSecretVariable}; serve it with encore-selfhost run`);
  }
  const log = rootLogger();
  const meta = appMeta();
  // Before the routes are compiled: each decides then whether it records spans.
  const tracing = await startAppTracing(options.keepTraces === true || wanted !== undefined);
  // Before the app's modules load (their metrics may be set as they load) and before routes are compiled.
  const meter = metricsEnabled(cfg.metrics) ? await startMetrics({ runningPubSub }) : null;
  // First, rather than on first use: a missing OBJECTS_SIGNING_KEY in production stops start-up at once.
  const objects = meta.buckets.length > 0 ? await startObjects() : null;
  // The runtime's own databases too, so pub/sub and cron find theirs ready.
  const databases = [
    ...meta.databases.map((db) => db.name),
    ...(meta.topics.length > 0 && !cfg.natsUrl ? [pubsubDatabaseName] : []),
    ...(cfg.cron && meta.cronJobs.length > 0 ? [cronDatabaseName] : []),
  ];
  // An app with nothing to store (hello world) starts no PostgreSQL at all.
  if (databases.length > 0) await connectServer();
  let server: FastifyInstance | undefined;
  let metricsServer: Server | null = null;
  // The dashboard's secret for calls to internal endpoints: the app server routes them for it only.
  const devCalls = wanted === undefined ? null : createDevCalls();
  try {
    await openDatabases(databases);
    for (const { name, applied } of openedDatabases()) {
      if (applied.length) log.info({ database: name, applied: applied.map((m) => m.file) }, "migrations applied");
    }

    const endpoints = await loadEndpoints(); // loading the services declares their topics, subscriptions and buckets
    await connectionsReady();
    if (hasPubSub()) await startPubSub();
    server = await buildHttpServer(endpoints.values(), cfg, {
      auth: await loadAuthHandler(),
      openApiOf: cfg.serveOpenApi ? meta : null,
      devCalls,
    });
    await server.listen({ host: cfg.host, port: cfg.port });
    if (meter !== null && cfg.metrics.port !== null) metricsServer = await listenForMetrics(cfg.metrics, cfg.host, meter);
    if (cfg.cron && hasCronJobs()) await startCron();
  } catch (err) {
    // Leave as a stop would, so the process can exit: its connections (the presence on
    // the embedded cluster above all) would otherwise keep it running, and the cluster
    // it may have started is stopped unless another process uses it.
    await server?.close().catch(() => {});
    metricsServer?.close();
    stopMetrics();
    await stopCron(0).catch(() => {});
    await stopPubSub(0).catch(() => {});
    await stopObjects().catch(() => {});
    await stopCache().catch(() => {});
    await disconnectServer().catch(() => {});
    await stopTracing(0).catch(() => {});
    throw err;
  }

  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : cfg.port;
  log.info(
    {
      database: describeDatabase(meta.databases.map((d) => d.name)),
      publicBaseUrl: cfg.publicBaseUrl,
      objects: objects ? describeObjects(objects.kind) : "none (no buckets)",
      cache: describeCache(meta.caches.length, cfg.redisUrl),
      cron: cfg.cron ? meta.cronJobs.map((j) => j.name) : "off (CRON=off)",
      auth: meta.auth ? `${meta.auth.service}.${meta.auth.name}` : "none",
      tracing,
      metrics: describeMetrics(metricsServer, cfg.host, port),
    },
    `listening on http://localhost:${port}`,
  );
  const dashboard = wanted && devCalls ? await wanted.open(server, cfg, { port: wanted.port, secret: wanted.secret!, devCalls }) : null;
  if (dashboard) wanted?.opened?.(dashboard.url);
  const running = server;
  void stopRequested.then(() =>
    stopAndExit(async () => {
      await dashboard?.close(); // first: its open event streams end, and its port is free for the next run
      await running.close();
      if (metricsServer !== null) await new Promise((resolve) => metricsServer!.close(resolve));
    }),
  );
  return server;
}

function describeMetrics(server: Server | null, host: string, appPort: number): string {
  const { metrics } = config();
  if (server !== null) return `${metricsAddress(server, host)}${metrics.token ? " (bearer token required)" : ""}`;
  if (metrics.token !== null) return `http://localhost:${appPort}/metrics (bearer token required)`;
  return "off (set METRICS_PORT or METRICS_TOKEN)";
}

function describeDatabase(names: string[]): string {
  if (names.length === 0) return "none (no databases)";
  const cfg = config();
  const where = cfg.databaseUrl ? `PostgreSQL at ${new URL(cfg.databaseUrl).host}` : `embedded PostgreSQL in ${embeddedClusterHome()}`;
  return `${where}, databases ${names.map(physicalName).join(", ")}, at most ${poolShare()} connections each`;
}

function describeObjects(kind: "local" | "s3"): string {
  const { dataDir, objects } = config();
  if (kind === "local") return `local files under ${dataDir}/objects`;
  const where = `S3 at ${objects.s3.endpoint ?? `AWS ${objects.s3.region}`}`;
  return objects.s3.bucketPrefix ? `${where}, buckets prefixed ${objects.s3.bucketPrefix}` : where;
}

/** Where cache keys are kept: nothing is connected at start (the first cache operation connects). */
function describeCache(clusters: number, redisUrl: string | null): string {
  if (clusters === 0) return "none (no cache clusters)";
  if (redisUrl === null) return "in this process's memory (REDIS_URL unset)";
  const url = new URL(redisUrl);
  if (url.password) url.password = "***";
  return `Redis at ${url.toString()}`;
}
