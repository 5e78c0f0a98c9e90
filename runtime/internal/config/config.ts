import path from "node:path";
import { parseErrorExtras, type ErrorExtras } from "./error-extras-config.ts";
import { parseMetricsConfig, type MetricsConfig } from "./metrics-config.ts";
import { parseObjectsConfig, type ObjectsConfig } from "./objects-config.ts";
import { parseSqlConfig, type SqlConfig } from "./sql-config.ts";
import { parseTracingConfig, type TracingConfig } from "./tracing-config.ts";
import { ConfigError, parseBool, type Env } from "./values.ts";

export { ConfigError } from "./values.ts";

/** Runtime configuration, read from the environment once at start. */
export interface RuntimeConfig {
  /** App root: the folder holding encore.app. */
  readonly appRoot: string;
  /** HOST: the interface the server listens on; every one ("0.0.0.0") when unset, but see hostSet. */
  readonly host: string;
  /** Whether HOST was set: without it, `run` has its app listen on loopback only. */
  readonly hostSet: boolean;
  readonly port: number;
  /** Public address used to build absolute URLs, without a trailing slash. */
  readonly publicBaseUrl: string;
  /** PostgreSQL server; null runs the embedded cluster under dataDir/postgres. */
  readonly databaseUrl: string | null;
  /** Where the embedded cluster and local files live. */
  readonly dataDir: string;
  /** Whether DATA_DIR was set: production keeps local objects only in a folder it was told of. */
  readonly dataDirSet: boolean;
  /** Prepended to every database name on the PostgreSQL server, so environments can share one. */
  readonly databaseNamePrefix: string;
  /** Connection limits and timeouts (DATABASE_*). */
  readonly sql: SqlConfig;
  readonly logLevel: "trace" | "debug" | "info" | "warn" | "error" | "silent";
  /** Development only: put internal error messages in 500 responses. */
  readonly exposeInternalErrors: boolean;
  /** ENCORE_API_INCLUDE_INTERNAL_MESSAGE, ENCORE_API_INCLUDE_ERROR_STACK: Encore's extra fields in error answers (`run` sets the first). */
  readonly errorExtras: ErrorExtras;
  /** NATS server with JetStream for pub/sub; null keeps messages in the SQL store. */
  readonly natsUrl: string | null;
  /** REDIS_URL: the Redis server of encore.dev/storage/cache; null keeps the cache in this process. */
  readonly redisUrl: string | null;
  /** Bearer token for the pub/sub operations endpoints; null leaves them off. */
  readonly pubsubAdminToken: string | null;
  /** Whether this instance runs cron jobs at their ticks (CRON=off for API-only instances). */
  readonly cron: boolean;
  /**
   * SHUTDOWN_DELAY_MS: after SIGTERM, how long the server goes on serving while its health
   * checks answer 503, so load balancers stop sending it requests before it stops accepting them.
   */
  readonly shutdownDelayMs: number;
  /** From NODE_ENV: "production", "test", or else "development". */
  readonly environmentType: "production" | "development" | "test";
  /** Object storage (OBJECTS_*). */
  readonly objects: ObjectsConfig;
  /**
   * TRUST_PROXY=on: requests come through one load balancer, so the last entry of
   * X-Forwarded-For (the one it appended) is the client. Off: the peer address is.
   */
  readonly trustProxy: boolean;
  /** SERVE_OPENAPI=on: GET /openapi.json answers the app's OpenAPI document. */
  readonly serveOpenApi: boolean;
  /** Traces kept for the development dashboard and exported over OTLP (TRACE_BUFFER, OTEL_*). */
  readonly tracing: TracingConfig;
  /** Prometheus metrics at GET /metrics (METRICS_PORT, METRICS_TOKEN); off when neither is set. */
  readonly metrics: MetricsConfig;
}

const logLevels = ["trace", "debug", "info", "warn", "error", "silent"] as const;

/** Parses and validates configuration. Pure: tests pass their own env. */
export function parseConfig(env: Env, appRoot: string): RuntimeConfig {
  const port = parsePort(env.PORT);
  return Object.freeze({
    appRoot,
    host: env.HOST?.trim() || "0.0.0.0",
    hostSet: Boolean(env.HOST?.trim()),
    port,
    publicBaseUrl: parsePublicBaseUrl(env.PUBLIC_BASE_URL, port),
    databaseUrl: parseDatabaseUrl(env.DATABASE_URL),
    dataDir: path.resolve(appRoot, env.DATA_DIR?.trim() || ".data"),
    dataDirSet: Boolean(env.DATA_DIR?.trim()),
    databaseNamePrefix: parseNamePrefix(env.DATABASE_NAME_PREFIX),
    sql: parseSqlConfig(env),
    logLevel: parseLogLevel(env.LOG_LEVEL),
    exposeInternalErrors: parseBool("DEBUG_ERRORS", env.DEBUG_ERRORS, false),
    errorExtras: parseErrorExtras(env),
    natsUrl: parseNatsUrl(env.NATS_URL),
    redisUrl: parseRedisUrl(env.REDIS_URL),
    pubsubAdminToken: parseAdminToken(env.PUBSUB_ADMIN_TOKEN),
    cron: parseOnOff("CRON", env.CRON, true),
    shutdownDelayMs: parseShutdownDelay(env.SHUTDOWN_DELAY_MS),
    environmentType: env.NODE_ENV === "production" ? "production" : env.NODE_ENV === "test" ? "test" : "development",
    objects: parseObjectsConfig(env),
    trustProxy: parseOnOff("TRUST_PROXY", env.TRUST_PROXY, false),
    serveOpenApi: parseOnOff("SERVE_OPENAPI", env.SERVE_OPENAPI, false),
    tracing: parseTracingConfig(env),
    metrics: parseMetricsConfig(env, port),
  });
}

function parseRedisUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === "") return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError("REDIS_URL", `must be a URL such as redis://127.0.0.1:6379, got "${raw}"`);
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw new ConfigError("REDIS_URL", `must use redis:// or rediss://, got "${url.protocol}"`);
  }
  return raw.trim();
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return 4000;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError("PORT", `must be an integer from 0 to 65535, got "${raw}"`);
  }
  return port;
}

/** Up to five minutes: longer than any load balancer takes to notice, short of hanging a deploy. */
function parseShutdownDelay(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return 0;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0 || ms > 300_000) {
    throw new ConfigError("SHUTDOWN_DELAY_MS", `must be a whole number of milliseconds from 0 to 300000, got "${raw}"`);
  }
  return ms;
}

function parsePublicBaseUrl(raw: string | undefined, port: number): string {
  if (raw === undefined || raw.trim() === "") return `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError("PUBLIC_BASE_URL", `must be an absolute URL such as https://sho.rt, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError("PUBLIC_BASE_URL", `must use http or https, got "${url.protocol}"`);
  }
  if (url.search || url.hash) {
    throw new ConfigError("PUBLIC_BASE_URL", "must not have a query string or fragment");
  }
  return url.href.replace(/\/+$/, "");
}

function parseDatabaseUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === "") return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError("DATABASE_URL", "must be a URL such as postgres://user@host:5432/postgres");
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new ConfigError("DATABASE_URL", `must use postgres:// or postgresql://, got "${url.protocol}"`);
  }
  return raw.trim();
}

function parseNatsUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === "") return null;
  const servers = raw.split(",").map((s) => s.trim());
  for (const server of servers) {
    let url: URL;
    try {
      url = new URL(server);
    } catch {
      throw new ConfigError("NATS_URL", `must be nats://host:port (comma-separated for a cluster), got "${raw}"`);
    }
    if (!["nats:", "tls:"].includes(url.protocol)) {
      throw new ConfigError("NATS_URL", `must use nats:// or tls://, got "${url.protocol}"`);
    }
  }
  return servers.join(",");
}

function parseAdminToken(raw: string | undefined): string | null {
  if (raw === undefined || raw === "") return null;
  if (raw.trim().length < 16) throw new ConfigError("PUBSUB_ADMIN_TOKEN", "must be at least 16 characters");
  return raw.trim();
}

function parseNamePrefix(raw: string | undefined): string {
  const prefix = raw?.trim() ?? "";
  if (!/^[a-z0-9_]*$/.test(prefix)) {
    throw new ConfigError("DATABASE_NAME_PREFIX", `may hold only a-z, 0-9 and _, got "${raw}"`);
  }
  return prefix;
}

function parseLogLevel(raw: string | undefined): RuntimeConfig["logLevel"] {
  if (raw === undefined || raw.trim() === "") return "info";
  const level = raw.trim().toLowerCase();
  if (!(logLevels as readonly string[]).includes(level)) {
    throw new ConfigError("LOG_LEVEL", `must be one of ${logLevels.join(", ")}, got "${raw}"`);
  }
  return level as RuntimeConfig["logLevel"];
}

function parseOnOff(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw.trim() === "") return fallback;
  const v = raw.trim().toLowerCase();
  if (v === "on") return true;
  if (v === "off") return false;
  throw new ConfigError(name, `must be on or off, got "${raw}"`);
}
