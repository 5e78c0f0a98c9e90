import { ConfigError, type Env } from "./values.ts";

/** How the runtime reaches its databases (DATABASE_*), part of RuntimeConfig. */
export interface SqlConfig {
  /**
   * DATABASE_MAX_CONNECTIONS: the most connections the runtime of one instance
   * opens, over all its databases. Each database's pool gets an equal share; the
   * app's own clients on `connectionString` (drizzle's pool) come on top.
   */
  readonly maxConnections: number;
  /** DATABASE_CONNECT_TIMEOUT_MS: how long a query waits for a connection (a new one, or a free pool slot). */
  readonly connectTimeoutMs: number;
  /** DATABASE_QUERY_TIMEOUT_MS: how long one query may take; 0 for no limit. Migrations have none. */
  readonly queryTimeoutMs: number;
}

export function parseSqlConfig(env: Env): SqlConfig {
  return Object.freeze({
    maxConnections: parseInteger("DATABASE_MAX_CONNECTIONS", env.DATABASE_MAX_CONNECTIONS, 40, 4, 10_000),
    connectTimeoutMs: parseInteger("DATABASE_CONNECT_TIMEOUT_MS", env.DATABASE_CONNECT_TIMEOUT_MS, 5_000, 100, 600_000),
    queryTimeoutMs: parseInteger("DATABASE_QUERY_TIMEOUT_MS", env.DATABASE_QUERY_TIMEOUT_MS, 30_000, 0, 2_147_483_647),
  });
}

function parseInteger(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}
