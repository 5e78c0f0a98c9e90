import type { FastifyInstance } from "fastify";
import { cacheBackend } from "../cache/mod.ts";
import { runOperation } from "../cache/operation.ts";
import { APIError } from "../errors/api-error.ts";
import type { AppMeta } from "../meta/types.ts";
import type { CacheKeyLookup, CachesState } from "./api.ts";

/** Longest key the lookup takes: a key pattern's fields filled in, not a document. */
const maxKeyLength = 1024;

/**
 * GET /api/caches; GET /api/caches/:cluster/key?key=, one key's type, value and time to
 * live. Read-only: the lookup sends TYPE, PTTL and a read, through the same store (and
 * the same "<cluster>/" prefix) as the app's own keyspaces.
 */
export function registerCaches(app: FastifyInstance, meta: AppMeta): void {
  app.get("/api/caches", async (): Promise<CachesState> => ({
    backend: cacheBackend(),
    clusters: meta.caches.map((c) => ({
      name: c.name,
      evictionPolicy: c.evictionPolicy,
      keyspaces: c.keyspaces.map((k) => ({
        type: k.type,
        keyPattern: k.keyPattern,
        keyType: k.keyType,
        valueType: k.valueType,
        defaultExpiry: k.defaultExpiry,
        service: k.service,
        source: `${k.declaredIn.file}:${k.declaredIn.line}`,
      })),
    })),
  }));

  app.get("/api/caches/:cluster/key", async (req): Promise<CacheKeyLookup> => {
    const cluster = (req.params as { cluster: string }).cluster;
    if (!meta.caches.some((c) => c.name === cluster)) throw APIError.notFound(`no cache cluster "${cluster}"`);
    const { key } = req.query as { key?: unknown };
    if (typeof key !== "string" || key === "") throw APIError.invalidArgument("key must name the key to look up, e.g. user/42");
    if (key.length > maxKeyLength) throw APIError.invalidArgument(`key must be at most ${maxKeyLength} characters`);
    const entry = await runOperation({ cluster, keyspace: "(dashboard)", name: "inspect", write: false, keys: [key] }, (store, [k]) => store.inspect(k!));
    return { cluster, key, entry };
  });
}
