// Link password limits shared through the real Redis (TEST_REDIS_URL, set as REDIS_URL for
// this project in vitest.config.ts): two limits objects on two links stand for two app
// instances. The test has its own key prefix.
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { Redis } from "ioredis";
import { afterAll, expect, test } from "vitest";
import { LinkPasswordLimits } from "./link-passwords";
import { RedisLink } from "./limiter/redis";

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) throw new Error("REDIS_URL is not set: run with TEST_REDIS_URL (see vitest.config.ts)");
const prefix = `test:${randomUUID()}:`;
const direct = new Redis(redisUrl, { lazyConnect: true });
const links: RedisLink[] = [];

/**
 * A link to Redis, connected. A command gets 10 s, not the app's 500 ms: past its timeout a
 * command is counted in memory by design, which on a busy machine would read as a count not
 * shared.
 */
async function link(): Promise<RedisLink> {
  const created = await RedisLink.open({ url: redisUrl!, keyPrefix: prefix }, { commandTimeoutMs: 10_000 });
  links.push(created);
  if (created.client.status !== "ready") await once(created.client, "ready");
  return created;
}

afterAll(async () => {
  links.forEach((l) => l.close());
  const keys = await direct.keys(`${prefix}*`);
  if (keys.length > 0) await direct.del(...keys);
  direct.disconnect();
});

test("two instances share a pair's confirmed failures and its wait; a right password on either clears both", async () => {
  const [a, b] = [new LinkPasswordLimits(await link()), new LinkPasswordLimits(await link())];
  const wrong = () => Promise.resolve(false);
  const right = () => Promise.resolve(true);
  for (let i = 0; i < 20; i++) expect(await (i % 2 ? a : b).attempt("203.0.113.9", "shared", right)).toBe(true);
  expect(await a.attempt("203.0.113.9", "shared", wrong)).toBe(false);
  expect(await b.attempt("203.0.113.9", "shared", wrong)).toBe(false);
  expect(await a.attempt("203.0.113.9", "shared", wrong)).toBe(false);
  expect(await b.attempt("203.0.113.9", "shared", wrong)).toBe(false);
  await expect(a.attempt("203.0.113.9", "shared", right)).rejects.toMatchObject({ code: "resource_exhausted" });
  await expect(b.attempt("203.0.113.9", "shared", right)).rejects.toMatchObject({ code: "resource_exhausted" });
  await direct.del(`${prefix}link-password:pair-gate:${JSON.stringify(["203.0.113.9", "shared"])}`); // the wait over
  expect(await b.attempt("203.0.113.9", "shared", right)).toBe(true);
  expect(await a.attempt("203.0.113.9", "shared", wrong)).toBe(false); // the count started afresh: no wait
  expect(await a.attempt("203.0.113.9", "shared", right)).toBe(true);
});
