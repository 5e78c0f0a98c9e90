// The SQL store a crash test's processes share: a database on the PostgreSQL
// server (SERVER_URL) or an embedded PGlite folder (PGLITE_DIR).
import { tmpdir } from "node:os";
import path from "node:path";
import type { SqlDriver } from "../internal/sql/driver.ts";
import { PGliteDriver } from "../internal/sql/pglite-driver.ts";
import { PostgresDriver } from "../internal/sql/postgres-driver.ts";

export function openStore(where: { serverUrl?: string; name: string; pgliteDir?: string }): Promise<SqlDriver> {
  if (where.serverUrl) return PostgresDriver.open(where.serverUrl, where.name);
  return PGliteDriver.open(where.name, where.pgliteDir!, path.join(tmpdir(), `encore-pglite-${process.pid}`, where.name));
}
