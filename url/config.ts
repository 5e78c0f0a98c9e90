// The url service's tunables, read from the environment once, validated and frozen.

export interface UrlConfig {
  /** How many code → URL entries each instance keeps in memory. */
  readonly cacheSize: number;
  /** How often counted clicks are written; 0 writes each click before answering. */
  readonly clickFlushIntervalMs: number;
}

export function parseUrlConfig(env: Readonly<Record<string, string | undefined>>): UrlConfig {
  return Object.freeze({
    cacheSize: wholeNumber(env, "URL_CACHE_SIZE", 100_000, 1),
    clickFlushIntervalMs: wholeNumber(env, "CLICK_FLUSH_INTERVAL_MS", 100, 0),
  });
}

function wholeNumber(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) {
    throw new Error(`invalid configuration: ${name} must be a whole number of at least ${min}, got "${env[name]}"`);
  }
  return value;
}

export const urlConfig: UrlConfig = parseUrlConfig(process.env);
