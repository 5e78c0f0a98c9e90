// A Redis that cannot be reached: commands fail at once (no queue waiting for it), and the
// error an app lets through is answered 503 `unavailable`. The same with a running Redis
// that goes away and comes back: redis-outage.redis.test.ts.
import { describe, expect, test } from "vitest";
import { closedPort } from "../../test/closed-port.ts";
import { toWire } from "../server/pipeline/errors.ts";
import { CacheError, CacheUnavailable } from "./errors.ts";
import { wordError } from "./operation.ts";
import { RedisStore, RedisUnreachable } from "./redis-store.ts";

describe("a Redis nobody listens on", () => {
  test("each command fails with RedisUnreachable, which an endpoint answers as 503 unavailable", async () => {
    const store = await RedisStore.open(`redis://127.0.0.1:${await closedPort()}`);
    try {
      for (let i = 0; i < 3; i++) {
        const err = await store.get("k").catch((e: unknown) => e);
        expect(err).toBeInstanceOf(RedisUnreachable);
        const worded = wordError({ cluster: "c", keyspace: "k/:key", name: "get", write: false, keys: ["k"] }, "c/k", err);
        expect(worded).toBeInstanceOf(CacheUnavailable);
        expect(worded).toBeInstanceOf(CacheError);
        expect((worded as Error).message).toMatch(/^cache get "c\/k": cache cluster c is unavailable: /);
        expect(toWire(worded, false)).toEqual({
          status: 503,
          body: { code: "unavailable", message: "cache cluster c is unavailable", details: null },
        });
      }
    } finally {
      await store.close();
    }
  });
});
