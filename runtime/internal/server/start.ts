import type { FastifyInstance } from "fastify";
import { randomBytes } from "node:crypto";
import { config } from "../config/mod.ts";
import { claimEmbeddedData, type OwnerClaim } from "../control/owner.ts";
import { hasCronJobs, startCron, stopCron } from "../cron/mod.ts";
import { appMeta } from "../meta/load.ts";
import { rootLogger } from "../log/root.ts";
import { startObjects, stopObjects } from "../objects/mod.ts";
import { hasPubSub, startPubSub, stopPubSub } from "../pubsub/mod.ts";
import { loadAuthHandler, loadEndpoints } from "../registry/endpoints.ts";
import { closeAllDatabases, connectionsReady, openDatabase, openedDatabases, physicalName } from "../sql/databases.ts";
import { buildServer } from "./app.ts";

/** How long a stop may take before the process exits anyway. */
const shutdownTimeoutMs = 10_000;

/**
 * The boot step: everything declared in the app is known from the generated
 * metadata (written beforehand by the generator), so databases are opened and
 * migrated before any app module runs.
 */
export async function startServer(): Promise<FastifyInstance> {
  const cfg = config();
  const log = rootLogger();
  const meta = appMeta();
  // First, rather than on first use: a missing OBJECTS_SIGNING_KEY in production stops start-up at once.
  const objects = meta.buckets.length > 0 ? await startObjects() : null;
  // Embedded data on disk is this process's alone; the cron command then goes through this server.
  const owner = !cfg.databaseUrl && cfg.pgliteStorage === "disk" ? claimEmbeddedData(cfg.dataDir) : null;
  const controlToken = owner ? randomBytes(32).toString("base64url") : null;

  for (const db of meta.databases) await openDatabase(db.name);
  for (const { name, applied } of openedDatabases()) {
    if (applied.length) log.info({ database: name, applied: applied.map((m) => m.file) }, "migrations applied");
  }

  const endpoints = await loadEndpoints(); // loading the services declares their topics, subscriptions and buckets
  await connectionsReady();
  if (hasPubSub()) await startPubSub();
  const app = await buildServer(endpoints.values(), cfg, { auth: await loadAuthHandler(), controlToken });
  await app.listen({ host: cfg.host, port: cfg.port });
  if (cfg.cron && hasCronJobs()) await startCron();

  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : cfg.port;
  owner?.publish(`http://${loopbackOf(cfg.host)}:${port}`, controlToken!);
  log.info(
    {
      database: describeDatabase(meta.databases.map((d) => d.name)),
      publicBaseUrl: cfg.publicBaseUrl,
      objects: objects ? describeObjects(objects.kind) : "none (no buckets)",
      cron: cfg.cron ? meta.cronJobs.map((j) => j.name) : "off (CRON=off)",
      auth: meta.auth ? `${meta.auth.service}.${meta.auth.name}` : "none",
    },
    `listening on http://localhost:${port}`,
  );
  stopOnSignals(app, owner);
  return app;
}

/** An address of this server that the same machine can reach. */
function loopbackOf(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

function describeDatabase(names: string[]): string {
  const cfg = config();
  if (!cfg.databaseUrl) {
    return cfg.pgliteStorage === "memory" ? "embedded PGlite, in memory" : `embedded PGlite under ${cfg.dataDir}/pglite`;
  }
  const server = new URL(cfg.databaseUrl);
  return `PostgreSQL at ${server.host}, databases ${names.map(physicalName).join(", ")}`;
}

function describeObjects(kind: "local" | "s3"): string {
  const { dataDir, objects } = config();
  if (kind === "local") return `local files under ${dataDir}/objects`;
  const where = `S3 at ${objects.s3.endpoint ?? `AWS ${objects.s3.region}`}`;
  return objects.s3.bucketPrefix ? `${where}, buckets prefixed ${objects.s3.bucketPrefix}` : where;
}

/** Stop accepting, let in-flight requests and cron runs finish, close object storage and databases, exit 0. */
function stopOnSignals(app: FastifyInstance, owner: OwnerClaim | null): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const log = rootLogger();
    log.info({ signal }, "shutting down");
    const timer = setTimeout(() => {
      log.error(`shutdown took longer than ${shutdownTimeoutMs} ms; exiting`);
      process.exit(1);
    }, shutdownTimeoutMs);
    timer.unref();
    try {
      await app.close();
      await stopCron(shutdownTimeoutMs / 4);
      await stopPubSub(shutdownTimeoutMs / 4);
      await stopObjects();
      await closeAllDatabases();
      owner?.release();
      process.exitCode = 0;
    } catch (err) {
      log.error({ err }, "shutdown failed");
      process.exitCode = 1;
    }
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}
