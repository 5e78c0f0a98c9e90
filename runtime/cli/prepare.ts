// npm start's first-run step beside the build (start.mjs runs both at once): creates the
// embedded PostgreSQL cluster, about a second of initdb, on the core the build leaves idle.
// The server then finds it made. Nothing to do with DATABASE_URL set or a cluster present.
import { config } from "../internal/config/mod.ts";
import { embeddedClusterDir } from "../internal/sql/databases.ts";
import { initialiseCluster } from "../internal/sql/embedded/cluster.ts";

try {
  if (!config().databaseUrl) await initialiseCluster({ dir: embeddedClusterDir() });
} catch (err) {
  console.error(`start-up failed: ${(err as Error).message}`);
  process.exitCode = 1;
}
