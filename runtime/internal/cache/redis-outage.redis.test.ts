// A running Redis (TEST_REDIS_URL) that goes away and comes back, through a TCP relay this
// test cuts and restores: while it is gone every command fails at once as unreachable,
// and once it is back the next command reconnects by itself.
import { createServer, connect, type Server, type Socket } from "node:net";
import { afterAll, expect, test } from "vitest";
import { RedisStore, RedisUnreachable } from "./redis-store.ts";

const target = new URL(process.env.REDIS_URL!);
const sockets = new Set<Socket>();
let relay: Server | null = null;

async function startRelay(port: number): Promise<number> {
  relay = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay!.listen(port, "127.0.0.1", resolve));
  return (relay.address() as { port: number }).port;
}

async function stopRelay(): Promise<void> {
  const closing = new Promise((resolve) => relay!.close(resolve));
  for (const s of sockets) s.destroy();
  await closing;
}

afterAll(async () => {
  if (relay?.listening) await stopRelay();
});

test("commands fail fast while Redis is gone, and work again once it is back", async () => {
  const port = await startRelay(0);
  const store = await RedisStore.open(`redis://127.0.0.1:${port}`);
  try {
    const key = `outage-${process.pid}-${Date.now()}`;
    await store.set(key, "before", { ttl: 60_000 });
    await stopRelay();
    for (let i = 0; i < 3; i++) await expect(store.get(key)).rejects.toBeInstanceOf(RedisUnreachable);
    await startRelay(port);
    // The next command reconnects: nothing retries in the background.
    expect(await store.get(key)).toBe("before");
    await store.del([key]);
  } finally {
    await store.close();
  }
});
