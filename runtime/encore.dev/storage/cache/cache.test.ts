// The keyspaces on the in-process store (no REDIS_URL); cache.redis.test.ts runs the same cases on Redis.
import { cacheCases } from "./cache.cases.ts";

cacheCases("memory");
