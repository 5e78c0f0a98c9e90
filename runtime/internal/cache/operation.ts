import { APIError, withPrivateCause } from "../errors/api-error.ts";
import type { CacheOutcome } from "../tracing/recorder.ts";
import { recorder } from "../tracing/mod.ts";
import { CacheCommandError, CacheUnavailable, StoreReplyError } from "./errors.ts";
import { cacheStore, clusterPrefix } from "./mod.ts";
import type { CacheStore } from "./store.ts";

/** One operation as a keyspace sends it: Encore's name for it, and the keys it names (without the cluster's prefix). */
export interface Operation {
  readonly cluster: string;
  readonly keyspace: string;
  /** Encore's name: "get", "set if not exists", "push left", ... (core/src/cache/client.rs). */
  readonly name: string;
  readonly write: boolean;
  readonly keys: readonly string[];
}

/**
 * Runs `run` on the store with the keys prefixed by their cluster's, inside a "cache" span
 * while tracing is on. The store's refusals are worded as Encore's (`cache <op> "<key>": ...`),
 * and a store that cannot be reached as CacheUnavailable, which an endpoint answers as 503.
 */
export async function runOperation<T>(
  op: Operation,
  run: (store: CacheStore, keys: string[]) => Promise<T>,
  outcome: (value: T) => CacheOutcome = () => "ok",
): Promise<T> {
  const prefix = clusterPrefix(op.cluster);
  const keys = op.keys.map((key) => prefix + key);
  const attempt = async (): Promise<T> => {
    try {
      return await run(await cacheStore(), keys);
    } catch (err) {
      throw wordError(op, keys[0] ?? "", err);
    }
  };
  if (recorder === null) return attempt();
  return recorder.cache({ cluster: op.cluster, keyspace: op.keyspace, operation: op.name, key: op.keys[0] ?? "", write: op.write }, attempt, outcome);
}

/** A store failure as the app sees it; exported for the tests of the 503 it answers. */
export function wordError(op: Operation, key: string, err: unknown): unknown {
  if (err instanceof StoreReplyError) return new CacheCommandError(op.name, key, err.message);
  if (err instanceof Error && err.name === "RedisUnreachable") {
    // The driver's words stay in the log, out of the answer.
    const unavailable = withPrivateCause(APIError.unavailable(`cache cluster ${op.cluster} is unavailable`, err));
    return new CacheUnavailable(`cache ${op.name} "${key}": ${unavailable.message}: ${err.message}`, { cause: unavailable });
  }
  return err;
}
