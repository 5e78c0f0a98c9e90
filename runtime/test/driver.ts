import { randomBytes } from "node:crypto";
import { config } from "../internal/config/mod.ts";
import type { SqlDriver } from "../internal/sql/driver.ts";
import { PostgresDriver } from "../internal/sql/postgres-driver.ts";
import { dropDatabases } from "../vitest/databases.ts";

/** A fresh, empty database on the run's PostgreSQL server, and a function that drops it. */
export async function freshDriver(): Promise<{
  driver: SqlDriver;
  drop: () => Promise<void>;
  /** Another pool on the same database, as a second instance would have. */
  reopen: () => Promise<SqlDriver>;
  /** The database's URL, for clients of its own (LISTEN). */
  connectionString: string;
}> {
  const name = `rt_${randomBytes(5).toString("hex")}`;
  const serverUrl = config().databaseUrl!;
  const driver = await PostgresDriver.open(serverUrl, name);
  const others: SqlDriver[] = [];
  return {
    driver,
    connectionString: PostgresDriver.connectionString(serverUrl, name),
    reopen: async () => {
      const other = await PostgresDriver.open(serverUrl, name);
      others.push(other);
      return other;
    },
    drop: async () => {
      await Promise.all([driver, ...others].map((d) => d.close()));
      await dropDatabases(serverUrl, [name]);
    },
  };
}
