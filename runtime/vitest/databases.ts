import pg from "pg";
import { config } from "../internal/config/mod.ts";
import { natsPrefix, stopPubSub } from "../internal/pubsub/mod.ts";
import { closeAllDatabases, openedDatabases, physicalName } from "../internal/sql/databases.ts";
import { quoteIdent } from "../internal/sql/postgres-driver.ts";

/** Drops databases on a PostgreSQL server, closing whatever connections they still have. */
export async function dropDatabases(serverUrl: string, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    for (const name of names) await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** Closes this file's databases and drops them. */
export async function dropTestDatabases(): Promise<void> {
  await stopPubSub(1000);
  const natsUrl = config().natsUrl;
  if (natsUrl) {
    const { deleteNatsStreams } = await import("../internal/pubsub/nats-provider.ts");
    await deleteNatsStreams(natsUrl, natsPrefix(config().databaseNamePrefix));
  }
  const names = openedDatabases().map((d) => physicalName(d.name));
  await closeAllDatabases();
  await dropDatabases(config().databaseUrl!, names);
}
