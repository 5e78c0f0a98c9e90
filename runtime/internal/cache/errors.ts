// The errors of encore.dev/storage/cache, with the real package's class names and
// messages (runtimes/js/encore.dev/storage/cache/errors.ts), so `instanceof CacheMiss`
// and the text an app logs read the same under Encore and here.

export class CacheError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    Object.defineProperty(this, "name", { value: new.target.name, enumerable: false, configurable: true });
  }
}

/** The key does not exist (replace). The key is the keyspace's, without the cluster's prefix. */
export class CacheMiss extends CacheError {
  constructor(key: string) {
    super(`cache key "${key}" not found`);
  }
}

/** The key already exists (setIfNotExists). */
export class CacheKeyExists extends CacheError {
  constructor(key: string) {
    super(`cache key "${key}" already exists`);
  }
}

/**
 * A command the store refused (a value of the wrong type, an index out of range). Encore
 * words these `cache <operation> "<key>": redis error: <Redis's reply>` (core/src/cache/error.rs).
 */
export class CacheCommandError extends CacheError {
  constructor(operation: string, key: string, reply: string) {
    super(`cache ${operation} "${key}": redis error: ${reply}`);
  }
}

/** Redis's replies, which the in-process store gives word for word. */
export const replies = Object.freeze({
  wrongType: "WRONGTYPE Operation against a key holding the wrong kind of value",
  notInteger: "ERR value is not an integer or out of range",
  notFloat: "ERR value is not a valid float",
  overflow: "ERR increment or decrement would overflow",
  noSuchKey: "ERR no such key",
  indexOutOfRange: "ERR index out of range",
  invalidExpire: "ERR invalid expire time in 'set' command",
  notPositive: "ERR value is out of range, must be positive",
  offsetOutOfRange: "ERR offset is out of range",
});

/** A reply of the store to one command: the operation layer words it with the operation and key. */
export class StoreReplyError extends Error {
  constructor(reply: string) {
    super(reply);
    this.name = "StoreReplyError";
  }
}

/**
 * The store cannot be reached (Redis down, or slower than a command may take). An
 * endpoint that lets it through answers 503 `unavailable`: the APIError it wraps.
 */
export class CacheUnavailable extends CacheError {}
