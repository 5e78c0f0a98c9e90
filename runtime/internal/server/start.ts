import type { FastifyInstance } from "fastify";
import { config } from "../config/mod.ts";
import { appMeta } from "../meta/load.ts";
import { rootLogger } from "../log/root.ts";
import { hasPubSub, startPubSub, stopPubSub } from "../pubsub/mod.ts";
import { loadEndpoints } from "../registry/endpoints.ts";
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

  for (const db of meta.databases) await openDatabase(db.name);
  for (const { name, applied } of openedDatabases()) {
    if (applied.length) log.info({ database: name, applied: applied.map((m) => m.file) }, "migrations applied");
  }

  const endpoints = await loadEndpoints(); // loading the services declares their topics and subscriptions
  await connectionsReady();
  if (hasPubSub()) await startPubSub();
  const app = await buildServer(endpoints.values(), cfg);
  await app.listen({ host: cfg.host, port: cfg.port });

  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : cfg.port;
  log.info(
    { database: describeDatabase(meta.databases.map((d) => d.name)), publicBaseUrl: cfg.publicBaseUrl },
    `listening on http://localhost:${port}`,
  );
  stopOnSignals(app);
  return app;
}

function describeDatabase(names: string[]): string {
  const cfg = config();
  if (!cfg.databaseUrl) {
    return cfg.pgliteStorage === "memory" ? "embedded PGlite, in memory" : `embedded PGlite under ${cfg.dataDir}/pglite`;
  }
  const server = new URL(cfg.databaseUrl);
  return `PostgreSQL at ${server.host}, databases ${names.map(physicalName).join(", ")}`;
}

/** Stop accepting, let in-flight requests finish, close databases, exit 0. */
function stopOnSignals(app: FastifyInstance): void {
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
      await stopPubSub(shutdownTimeoutMs / 2);
      await closeAllDatabases();
      process.exitCode = 0;
    } catch (err) {
      log.error({ err }, "shutdown failed");
      process.exitCode = 1;
    }
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}
