import { ConfigError, type Env } from "./values.ts";

/**
 * Where Prometheus metrics are served (METRICS_PORT, METRICS_TOKEN), part of RuntimeConfig.
 * Off unless one is set: the port says where `GET /metrics` is answered, the token who may
 * read it.
 */
export interface MetricsConfig {
  /**
   * METRICS_PORT: a listener of its own on HOST, serving only `GET /metrics`; 0 picks a free
   * port (logged). Null: none, and with a token `/metrics` is served on the app's port.
   */
  readonly port: number | null;
  /** METRICS_TOKEN: `Authorization: Bearer <token>` is required to read `/metrics`; null requires nothing. */
  readonly token: string | null;
}

export function parseMetricsConfig(env: Env, appPort: number): MetricsConfig {
  const port = parsePort(env.METRICS_PORT);
  if (port !== null && port !== 0 && port === appPort) {
    throw new ConfigError("METRICS_PORT", `must differ from PORT (${appPort}); to serve /metrics on the app's port, set METRICS_TOKEN alone`);
  }
  return Object.freeze({ port, token: parseToken(env.METRICS_TOKEN) });
}

/** Whether metrics are collected at all: only when someone can read them. */
export function metricsEnabled(cfg: MetricsConfig): boolean {
  return cfg.port !== null || cfg.token !== null;
}

function parsePort(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === "") return null;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError("METRICS_PORT", `must be an integer from 0 to 65535, got "${raw}"`);
  }
  return port;
}

function parseToken(raw: string | undefined): string | null {
  if (raw === undefined || raw === "") return null;
  const token = raw.trim();
  // Sent as an HTTP header value: anything else could not be presented by a client.
  if (token.length < 16) throw new ConfigError("METRICS_TOKEN", "must be at least 16 characters");
  if (!/^[\x21-\x7e]+$/.test(token)) throw new ConfigError("METRICS_TOKEN", "may hold only visible ASCII characters, without spaces");
  return token;
}
