import type { ChainableCommander, Redis } from "ioredis";
import { replies, StoreReplyError } from "./errors.ts";
import type { CacheStore, InspectedKey, SetAlgebra, SetOptions, SetResult, Side, Ttl } from "./store.ts";

export interface RedisStoreOptions {
  /** How long one command may take before it fails (and the caller answers 503). */
  readonly commandTimeoutMs?: number;
  readonly connectTimeoutMs?: number;
}

/** A failure to reach Redis (not a reply of Redis's): the caller words it as unavailable. */
export class RedisUnreachable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RedisUnreachable";
  }
}

type Reply = unknown;

/**
 * The cache on a Redis server (REDIS_URL), shared by every instance. Each write that sets
 * or drops a TTL is sent with its PEXPIREAT or PERSIST in one MULTI, as Encore's client does.
 *
 * It never makes a request wait long for Redis: without the offline queue a command sent while
 * the connection is down fails at once, one without an answer fails after `commandTimeoutMs`.
 * It connects on demand: the first command opens the connection, and after a lost one the
 * next command opens it again (waiting at most `connectTimeoutMs`, and not at all when the
 * server refuses). Idle, it does nothing: no reconnection timers, no pings, and its socket
 * is unref'd, so it never keeps a process alive.
 */
export class RedisStore implements CacheStore {
  readonly kind = "redis";
  readonly #client: Redis;
  readonly #connectTimeoutMs: number;

  static async open(url: string, options: RedisStoreOptions = {}): Promise<RedisStore> {
    // Loaded here: an instance without REDIS_URL never loads ioredis.
    const { Redis } = await import("ioredis");
    const connectTimeoutMs = options.connectTimeoutMs ?? 2_000;
    const client = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 1_000,
      connectTimeout: connectTimeoutMs,
      // No reconnection in the background: the next command reconnects (#connected).
      retryStrategy: () => null,
    });
    client.on("connect", () => client.stream.unref());
    // Failures reach the commands that meet them; the event must still be heard.
    client.on("error", () => {});
    return new RedisStore(client, connectTimeoutMs);
  }

  private constructor(client: Redis, connectTimeoutMs: number) {
    this.#client = client;
    this.#connectTimeoutMs = connectTimeoutMs;
  }

  async get(key: string): Promise<string | null> {
    return (await this.#call("GET", key)) as string | null;
  }

  async mget(keys: readonly string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return [];
    return (await this.#call("MGET", ...keys)) as (string | null)[];
  }

  async set(key: string, value: string, options: SetOptions): Promise<SetResult> {
    const args: (string | number)[] = [key, value];
    if (options.ttl === "keep") args.push("KEEPTTL");
    else if (typeof options.ttl === "number") args.push("PX", options.ttl);
    if (options.condition) args.push(options.condition.toUpperCase());
    if (options.get) args.push("GET");
    const reply = await this.#call("SET", ...args);
    if (options.get) return { written: options.condition === undefined || reply !== null, previous: reply as string | null };
    return { written: reply !== null, previous: null };
  }

  async getDel(key: string): Promise<string | null> {
    return (await this.#call("GETDEL", key)) as string | null;
  }

  async del(keys: readonly string[]): Promise<number> {
    if (keys.length === 0) return 0;
    return (await this.#call("DEL", ...keys)) as number;
  }

  async mset(entries: readonly (readonly [string, string])[], ttl: Ttl): Promise<void> {
    if (entries.length === 0) return;
    if (ttl === undefined || ttl === "persist") {
      await this.#call("MSET", ...entries.flat());
      return;
    }
    // MSET takes no TTL: each key is SET with it, in one MULTI.
    const ttlArgs = ttl === "keep" ? ["KEEPTTL"] : ["PX", ttl];
    await this.#multi((m) => {
      for (const [key, value] of entries) m.call("SET", key, value, ...ttlArgs);
    });
  }

  async append(key: string, value: string, ttl: Ttl): Promise<number> {
    return (await this.#withTtl([key], ttl, "APPEND", key, value)) as number;
  }

  async getRange(key: string, start: number, end: number): Promise<string> {
    return (await this.#call("GETRANGE", key, start, end)) as string;
  }

  async setRange(key: string, offset: number, value: string, ttl: Ttl): Promise<number> {
    return (await this.#withTtl([key], ttl, "SETRANGE", key, offset, value)) as number;
  }

  async strlen(key: string): Promise<number> {
    return (await this.#call("STRLEN", key)) as number;
  }

  async incrBy(key: string, delta: number, ttl: Ttl): Promise<number> {
    return (await this.#withTtl([key], ttl, "INCRBY", key, delta)) as number;
  }

  async incrByFloat(key: string, delta: number, ttl: Ttl): Promise<number> {
    return Number(await this.#withTtl([key], ttl, "INCRBYFLOAT", key, delta));
  }

  async push(key: string, side: Side, values: readonly string[], ttl: Ttl): Promise<number> {
    return (await this.#withTtl([key], ttl, side === "left" ? "LPUSH" : "RPUSH", key, ...values)) as number;
  }

  async pop(key: string, side: Side, ttl: Ttl): Promise<string | null> {
    return (await this.#withTtl([key], ttl, side === "left" ? "LPOP" : "RPOP", key)) as string | null;
  }

  async lindex(key: string, index: number): Promise<string | null> {
    return (await this.#call("LINDEX", key, index)) as string | null;
  }

  async lset(key: string, index: number, value: string): Promise<void> {
    await this.#call("LSET", key, index, value);
  }

  async lrange(key: string, start: number, stop: number): Promise<string[]> {
    return (await this.#call("LRANGE", key, start, stop)) as string[];
  }

  async ltrim(key: string, start: number, stop: number): Promise<void> {
    await this.#call("LTRIM", key, start, stop);
  }

  async linsert(key: string, where: "before" | "after", pivot: string, value: string, ttl: Ttl): Promise<number> {
    return (await this.#withTtl([key], ttl, "LINSERT", key, where.toUpperCase(), pivot, value)) as number;
  }

  async lrem(key: string, count: number, value: string, ttl: Ttl): Promise<number> {
    return (await this.#withTtl([key], ttl, "LREM", key, count, value)) as number;
  }

  async lmove(src: string, dst: string, from: Side, to: Side, ttl: Ttl): Promise<string | null> {
    return (await this.#withTtl([src, dst], ttl, "LMOVE", src, dst, from.toUpperCase(), to.toUpperCase())) as string | null;
  }

  async llen(key: string): Promise<number> {
    return (await this.#call("LLEN", key)) as number;
  }

  async sadd(key: string, members: readonly string[], ttl: Ttl): Promise<number> {
    if (members.length === 0) return 0;
    return (await this.#withTtl([key], ttl, "SADD", key, ...members)) as number;
  }

  async srem(key: string, members: readonly string[], ttl: Ttl): Promise<number> {
    if (members.length === 0) return 0;
    return (await this.#withTtl([key], ttl, "SREM", key, ...members)) as number;
  }

  async sismember(key: string, member: string): Promise<boolean> {
    return (await this.#call("SISMEMBER", key, member)) === 1;
  }

  async spop(key: string, ttl: Ttl): Promise<string | null> {
    return (await this.#withTtl([key], ttl, "SPOP", key)) as string | null;
  }

  async spopCount(key: string, count: number, ttl: Ttl): Promise<string[]> {
    return (await this.#withTtl([key], ttl, "SPOP", key, count)) as string[];
  }

  async srandmember(key: string): Promise<string | null> {
    return (await this.#call("SRANDMEMBER", key)) as string | null;
  }

  async srandmemberCount(key: string, count: number): Promise<string[]> {
    return (await this.#call("SRANDMEMBER", key, count)) as string[];
  }

  async smembers(key: string): Promise<string[]> {
    return (await this.#call("SMEMBERS", key)) as string[];
  }

  async scard(key: string): Promise<number> {
    return (await this.#call("SCARD", key)) as number;
  }

  async sAlgebra(op: SetAlgebra, keys: readonly string[]): Promise<string[]> {
    return (await this.#call(`S${op.toUpperCase()}`, ...keys)) as string[];
  }

  async sAlgebraStore(op: SetAlgebra, dest: string, keys: readonly string[], ttl: Ttl): Promise<number> {
    return (await this.#withTtl([dest], ttl, `S${op.toUpperCase()}STORE`, dest, ...keys)) as number;
  }

  async smove(src: string, dst: string, member: string, ttl: Ttl): Promise<boolean> {
    return (await this.#withTtl([src, dst], ttl, "SMOVE", src, dst, member)) === 1;
  }

  async inspect(key: string): Promise<InspectedKey | null> {
    const [type, ttl] = (await this.#multi((m) => m.call("TYPE", key).call("PTTL", key))) as [string, number];
    const ttlMs = ttl >= 0 ? ttl : null;
    if (type === "string") return { type, value: ((await this.#call("GET", key)) as string | null) ?? "", ttlMs };
    if (type === "list") return { type, value: (await this.#call("LRANGE", key, 0, -1)) as string[], ttlMs };
    if (type === "set") return { type, value: ((await this.#call("SMEMBERS", key)) as string[]).sort(), ttlMs };
    if (type === "none") return null;
    throw new StoreReplyError(replies.wrongType);
  }

  async deletePrefix(prefix: string): Promise<number> {
    const pattern = prefix.replace(/[\\*?[\]]/g, "\\$&") + "*";
    let cursor = "0";
    let deleted = 0;
    do {
      const [next, keys] = (await this.#call("SCAN", cursor, "MATCH", pattern, "COUNT", 500)) as [string, string[]];
      cursor = next;
      if (keys.length > 0) deleted += (await this.#call("UNLINK", ...keys)) as number;
    } while (cursor !== "0");
    return deleted;
  }

  async close(): Promise<void> {
    this.#client.disconnect();
  }

  /** One command; with a TTL to set or drop, in a MULTI with its PEXPIREAT or PERSIST on each of `keys`. */
  async #withTtl(keys: readonly string[], ttl: Ttl, command: string, ...args: (string | number)[]): Promise<Reply> {
    if (ttl === undefined || ttl === "keep") return this.#call(command, ...args);
    const [reply] = await this.#multi((m) => {
      m.call(command, ...args);
      for (const key of keys) {
        if (ttl === "persist") m.call("PERSIST", key);
        else m.call("PEXPIREAT", key, Date.now() + ttl);
      }
    });
    return reply;
  }

  async #call(command: string, ...args: (string | number)[]): Promise<Reply> {
    await this.#connected();
    try {
      return await this.#client.call(command, ...args);
    } catch (err) {
      throw asStoreError(err);
    }
  }

  /** The replies of a MULTI, in order; the first failed command's error is thrown. */
  async #multi(build: (m: ChainableCommander) => void): Promise<Reply[]> {
    await this.#connected();
    const multi = this.#client.multi();
    build(multi);
    let results: [Error | null, Reply][] | null;
    try {
      results = await multi.exec();
    } catch (err) {
      throw asStoreError(err);
    }
    if (results === null) throw new RedisUnreachable("the transaction was aborted");
    for (const [err] of results) if (err) throw asStoreError(err);
    return results.map(([, reply]) => reply);
  }

  /** Connects on first use and after a lost connection, waiting at most connectTimeoutMs; a failure reaches the command. */
  async #connected(): Promise<void> {
    const status = this.#client.status;
    if (status === "ready") return;
    if (status === "wait" || status === "end") this.#client.connect().catch(() => {}); // failures reach the command
    if (this.#client.status === "connecting" || this.#client.status === "connect") await this.#settled();
  }

  /** Until the connection is ready or has failed ("end", as nothing retries), or connectTimeoutMs. */
  #settled(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#client.off("ready", done).off("end", done);
        resolve();
      };
      // Not unref'd: a command waits on it, as it would on its socket.
      const timer = setTimeout(done, this.#connectTimeoutMs);
      this.#client.on("ready", done).on("end", done);
    });
  }
}

/** Redis's replies (ReplyError) keep their text; anything else means Redis could not be reached. */
function asStoreError(err: unknown): Error {
  if (err instanceof Error && err.name === "ReplyError") return new StoreReplyError(err.message.replace(/^EXECABORT [^:]*: /, ""));
  const message = err instanceof Error ? err.message : String(err);
  return new RedisUnreachable(message, { cause: err });
}
