import { appRoot } from "./app-root.ts";
import { parseConfig, type RuntimeConfig } from "./config.ts";

export { ConfigError, parseConfig, type RuntimeConfig } from "./config.ts";
export type { MetricsConfig } from "./metrics-config.ts";
export { metricsEnabled } from "./metrics-config.ts";
export type { ObjectsConfig, S3Config } from "./objects-config.ts";
export type { SqlConfig } from "./sql-config.ts";
export type { TracingConfig } from "./tracing-config.ts";
export { appRoot } from "./app-root.ts";

let current: RuntimeConfig | undefined;

/**
 * The process's configuration, read from the environment on first use and frozen.
 * The only place the runtime reads process.env (secrets aside).
 */
export function config(): RuntimeConfig {
  current ??= parseConfig(process.env, appRoot);
  return current;
}
