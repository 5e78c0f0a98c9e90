// Limits shared through the real Redis (TEST_REDIS_URL, set as REDIS_URL for this
// project in vitest.config.ts): two limiter instances stand for two app instances.
// Each test has its own key prefix.
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, Socket, type Server } from "node:net";
import { Redis } from "ioredis";
import { afterAll, afterEach, expect, test } from "vitest";
import { ApiKeyLimits } from "./api-keys";
import { LoginLimits } from "./logins";
import { LinkLimits, type LinkLimitsConfig } from "./links";
import { RedisLink } from "./limiter/redis";
import { SignupLimits } from "./signups";

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) throw new Error("REDIS_URL is not set: run with TEST_REDIS_URL (see vitest.config.ts)");
const direct = new Redis(redisUrl, { lazyConnect: true });
const links: RedisLink[] = [];
/** This test's key prefix; afterEach deletes what it matches, so it is never empty (an empty one matched every key in Redis, the other suites' too). */
let prefix = `test:${randomUUID()}:`;

/**
 * A link to Redis, connected: as an instance's is by the time requests arrive. The tests of
 * sharing give a command 10 s, not the app's 500 ms: past its timeout a command is counted
 * in memory by design, which on a busy machine would read as a count not shared.
 */
async function link(url = redisUrl!, commandTimeoutMs = 10_000): Promise<RedisLink> {
  const created = await RedisLink.open({ url, keyPrefix: prefix }, { commandTimeoutMs });
  links.push(created);
  if (created.client.status !== "ready") await once(created.client, "ready");
  return created;
}

afterEach(async () => {
  links.splice(0).forEach((l) => l.close());
  const keys = await direct.keys(`${prefix}*`);
  if (keys.length > 0) await direct.del(...keys);
});
afterAll(() => direct.disconnect());

function newPrefix(): string {
  prefix = `test:${randomUUID()}:`;
  return prefix;
}

const config: LinkLimitsConfig = { perAddress: 3, perUser: 5, windowSeconds: 600, deniedHosts: [] };
const anonymous = { address: "203.0.113.1", userID: undefined };

test("Redis answers (a server that does not fails this suite)", async () => {
  expect(await direct.ping()).toBe("PONG");
});

test("two instances share one address's link budget, and agree on the wait", async () => {
  newPrefix();
  const [a, b] = [new LinkLimits(config, await link()), new LinkLimits(config, await link())];
  await a.count(anonymous);
  await b.count(anonymous);
  await a.count(anonymous);
  const refused = await b.count(anonymous).catch((err: unknown) => err);
  expect(refused).toMatchObject({ code: "resource_exhausted", details: { retryAfterSeconds: expect.any(Number) } });
  const wait = (refused as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds;
  expect(wait).toBeGreaterThan(590);
  expect(await direct.get(`${prefix}links:address:203.0.113.1`)).toBe("4");
  expect(await direct.pttl(`${prefix}links:address:203.0.113.1`)).toBeGreaterThan(590_000);
});

test("the check that opens a link waits for it to connect, and is counted in Redis", async () => {
  newPrefix();
  // As the app's own link is opened: by the first check that needs it (limiter/redis.ts sharedRedis).
  const opening = RedisLink.open({ url: redisUrl!, keyPrefix: prefix }, { commandTimeoutMs: 10_000 });
  const limits = new LinkLimits(config, opening);
  await limits.count(anonymous);
  links.push(await opening);
  expect(await direct.get(`${prefix}links:address:203.0.113.1`)).toBe("1");
});

test("two instances share a user's budget across addresses", async () => {
  newPrefix();
  const [a, b] = [new LinkLimits(config, await link()), new LinkLimits(config, await link())];
  for (let i = 0; i < 5; i++) await (i % 2 ? a : b).count({ address: `198.51.100.${i}`, userID: "u1" });
  await expect(a.count({ address: "198.51.100.99", userID: "u1" })).rejects.toMatchObject({ code: "resource_exhausted" });
  await expect(b.count({ address: "198.51.100.99", userID: "u2" })).resolves.toBeUndefined();
});

test("a login pair's wait holds on every instance", async () => {
  newPrefix();
  const [a, b] = [new LoginLimits({ failuresPerAddress: 100 }, await link()), new LoginLimits({ failuresPerAddress: 100 }, await link())];
  for (let i = 0; i < 4; i++) await (i % 2 ? a : b).begin("203.0.113.5", "x@example.com"); // 4 failures: never succeeded
  await expect(a.begin("203.0.113.5", "x@example.com")).rejects.toMatchObject({ code: "resource_exhausted" });
  await expect(b.begin("203.0.113.5", "x@example.com")).rejects.toMatchObject({ code: "resource_exhausted" });
  await expect(b.begin("203.0.113.6", "x@example.com")).resolves.toBeDefined(); // another address is another pair
});

test("two instances share one address's sign-up budget", async () => {
  newPrefix();
  const signupConfig = { perAddress: 2, windowSeconds: 3600 };
  const [a, b] = [new SignupLimits(signupConfig, await link()), new SignupLimits(signupConfig, await link())];
  await a.count("203.0.113.7");
  await b.count("203.0.113.7");
  await expect(a.count("203.0.113.7")).rejects.toMatchObject({ code: "resource_exhausted", details: { retryAfterSeconds: expect.any(Number) } });
  expect(await direct.pttl(`${prefix}signups:address:203.0.113.7`)).toBeGreaterThan(3_590_000);
});

test("two instances share one budget of failed API key lookups", async () => {
  newPrefix();
  const config = { failuresPerMinute: 2 };
  const [a, b] = [new ApiKeyLimits(config, await link()), new ApiKeyLimits(config, await link())];
  await a.failed();
  await b.failed();
  for (const instance of [a, b]) {
    await expect(instance.failed()).rejects.toMatchObject({ code: "resource_exhausted", details: { retryAfterSeconds: expect.any(Number) } });
  }
  expect(await direct.get(`${prefix}apikeys:failures`)).toBe("4");
  const ttl = await direct.pttl(`${prefix}apikeys:failures`);
  expect(ttl).toBeGreaterThan(50_000);
  expect(ttl).toBeLessThanOrEqual(60_000);
});

/** A TCP relay to Redis that can be stopped and started on the same port: Redis going away and coming back. */
async function relay(): Promise<{ url: string; stop(): Promise<void>; start(): Promise<void> }> {
  const target = new URL(redisUrl!);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const start = async () => {
    server = createServer((client) => {
      const upstream = new Socket();
      upstream.connect(Number(target.port || 6379), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on("error", () => {});
        s.on("close", () => sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => server!.close(resolve));
    },
    start,
  };
}

test("Redis going away: counts go to memory at once; back again: the link reconnects by itself", async () => {
  newPrefix();
  const proxy = await relay();
  const limits = new LinkLimits({ ...config, perAddress: 100 }, await link(proxy.url, 500)); // the app's own timeout
  const key = `${prefix}links:address:203.0.113.1`;
  await limits.count(anonymous);
  const before = Number(await direct.get(key));
  expect(before).toBe(1);

  await proxy.stop();
  const started = performance.now();
  for (let i = 0; i < 5; i++) await limits.count(anonymous);
  expect(performance.now() - started).toBeLessThan(2_000); // no request waits for Redis
  expect(Number(await direct.get(key))).toBe(before);

  await proxy.start();
  await expect
    .poll(async () => (await limits.count(anonymous), Number(await direct.get(key))), { timeout: 10_000, interval: 300 })
    .toBeGreaterThan(before);
});
