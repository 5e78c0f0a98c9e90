// The keyspaces on Redis: the redis project sets REDIS_URL from TEST_REDIS_URL.
import { cacheCases } from "./cache.cases.ts";

cacheCases("redis");
