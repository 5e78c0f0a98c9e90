// Limits without Redis, and with a Redis that cannot be reached: never a hang, never a
// crash, counts per instance instead.
import { createServer } from "node:net";
import { afterAll, describe, expect, test } from "vitest";
import { Limiter, TooManyRequests } from "./limiter";
import { LinkLimits } from "../links";
import { RedisLink } from "./redis";

describe("in memory (REDIS_URL unset)", () => {
  test("a key gets its points, then TooManyRequests with the time left in its window", async () => {
    const limiter = new Limiter({ name: "t:", points: 2, durationSeconds: 60, redis: null });
    await limiter.consume("k");
    await limiter.consume("k");
    const refused = await limiter.consume("k").catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(TooManyRequests);
    expect((refused as TooManyRequests).msBeforeNext).toBeGreaterThan(59_000);
    await expect(limiter.consume("other")).resolves.toMatchObject({ consumed: 1 });
  });
});

describe("with Redis unreachable", () => {
  const links: RedisLink[] = [];
  afterAll(() => links.forEach((link) => link.close()));

  test("limits fall back to this instance's memory at once, and still limit", async () => {
    const link = await RedisLink.open({ url: `redis://127.0.0.1:${await closedPort()}`, keyPrefix: "t:" });
    links.push(link);
    const limits = new LinkLimits({ perAddress: 2, perUser: null, windowSeconds: 60, deniedHosts: [] }, link);
    const started = performance.now();
    await limits.count({ address: "203.0.113.1", userID: undefined });
    await limits.count({ address: "203.0.113.1", userID: undefined });
    await expect(limits.count({ address: "203.0.113.1", userID: undefined })).rejects.toMatchObject({ code: "resource_exhausted" });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

/**
 * A loopback port nothing listens on, so a connection to it is refused at once. Written
 * here rather than imported from the runtime's test helpers: app folders import no runtime code.
 */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
