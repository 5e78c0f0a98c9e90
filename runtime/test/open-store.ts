// The SQL store that a crash test's processes share: one database on the run's
// PostgreSQL server, which each process opens with a pool of its own.
import type { SqlDriver } from "../internal/sql/driver.ts";
import { PostgresDriver } from "../internal/sql/postgres-driver.ts";

export function openStore(where: { serverUrl: string; name: string }): Promise<SqlDriver> {
  return PostgresDriver.open(where.serverUrl, where.name);
}
