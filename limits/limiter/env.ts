// Reading limit settings from the environment: validated, and each error names its variable.

type Env = Readonly<Record<string, string | undefined>>;

/** A count from `name`: a whole number from 1 up, or "off" for no limit (null). */
export function limitSetting(env: Env, name: string, fallback: number | null): number | null {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (raw === "off") return null;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new Error(`invalid configuration: ${name} must be a whole number of at least 1, or off, got "${env[name]}"`);
  }
  return value;
}

/** A duration in seconds from `name`: a whole number from 1 to `max`. */
export function secondsSetting(env: Env, name: string, fallback: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new Error(`invalid configuration: ${name} must be a whole number of seconds from 1 to ${max}, got "${env[name]}"`);
  }
  return value;
}

/** A whole number from `name`, from `min` to `max`. */
export function wholeNumberSetting(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new Error(`invalid configuration: ${name} must be a whole number from ${min} to ${max}, got "${env[name]}"`);
  }
  return value;
}

/** A switch from `name`: on or off. */
export function onOffSetting(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (raw === "on") return true;
  if (raw === "off") return false;
  throw new Error(`invalid configuration: ${name} must be on or off, got "${env[name]}"`);
}

export interface RedisSettings {
  /** The Redis server that shares counts between instances. */
  readonly url: string;
  /** Put before every key, so several apps or environments can share one Redis. */
  readonly keyPrefix: string;
}

/** REDIS_URL (redis:// or rediss://) and REDIS_KEY_PREFIX; null when REDIS_URL is unset. */
export function redisSettings(env: Env): RedisSettings | null {
  const raw = env.REDIS_URL?.trim();
  const keyPrefix = env.REDIS_KEY_PREFIX?.trim() ?? "";
  if (!raw) {
    if (keyPrefix) throw new Error("invalid configuration: REDIS_KEY_PREFIX is set but REDIS_URL is not");
    return null;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`invalid configuration: REDIS_URL must be a URL such as redis://127.0.0.1:6379, got "${raw}"`);
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw new Error(`invalid configuration: REDIS_URL must start with redis:// or rediss://, not ${url.protocol}//`);
  }
  if (keyPrefix.length > 100) throw new Error("invalid configuration: REDIS_KEY_PREFIX must be at most 100 characters");
  return Object.freeze({ url: raw, keyPrefix });
}
