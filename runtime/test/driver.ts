import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { config } from "../internal/config/mod.ts";
import type { SqlDriver } from "../internal/sql/driver.ts";
import { PGliteDriver } from "../internal/sql/pglite-driver.ts";
import { PostgresDriver } from "../internal/sql/postgres-driver.ts";

/**
 * A fresh, empty database on the engine this test project runs on (in-memory
 * PGlite, or a new database on the PostgreSQL server), and a function that drops it.
 */
export async function freshDriver(): Promise<{
  driver: SqlDriver;
  drop: () => Promise<void>;
  reopen?: () => Promise<SqlDriver>;
  /** PostgreSQL only: the database's URL, for clients of its own (LISTEN). */
  connectionString?: string;
}> {
  const name = `rt_${randomBytes(5).toString("hex")}`;
  const serverUrl = config().databaseUrl;
  if (!serverUrl) {
    const driver = await PGliteDriver.open(name, null, path.join(tmpdir(), `encore-pglite-${process.pid}`, name));
    return { driver, drop: () => driver.close() };
  }
  const driver = await PostgresDriver.open(serverUrl, name);
  const others: SqlDriver[] = [];
  return {
    driver,
    connectionString: PostgresDriver.connectionString(serverUrl, name),
    /** Another pool on the same database, as a second instance would have. */
    reopen: async () => {
      const other = await PostgresDriver.open(serverUrl, name);
      others.push(other);
      return other;
    },
    drop: async () => {
      await Promise.all([driver, ...others].map((d) => d.close()));
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}
