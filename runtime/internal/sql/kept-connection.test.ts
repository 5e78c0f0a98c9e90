import { createServer, type Server } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { freshDriver } from "../../test/driver.ts";
import type { SqlDriver } from "./driver.ts";
import { KeptConnection } from "./kept-connection.ts";

let driver: SqlDriver;
let drop: () => Promise<void>;
let url: string;
const kept: KeptConnection[] = [];

beforeAll(async () => {
  ({ driver, drop, connectionString: url } = await freshDriver());
});
afterEach(async () => {
  await Promise.all(kept.splice(0).map((k) => k.close()));
});
afterAll(() => drop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 5000; !(await check()); await sleep(20)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

function named(name: string): string {
  const u = new URL(url);
  u.searchParams.set("application_name", name);
  return u.href;
}

async function sessions(name: string): Promise<number[]> {
  const rows = await driver.query("SELECT pid FROM pg_stat_activity WHERE application_name = $1", [name]);
  return rows.map((r) => r.pid as number);
}

describe("a kept connection", () => {
  test("lost to the server ending its session, comes back by itself as one session, telling once of the loss", async () => {
    const events: string[] = [];
    const connection = new KeptConnection({
      url: named("kept-back"),
      connectTimeoutMs: 2000,
      retryMs: 100,
      onUp: () => events.push("up"),
      onDown: () => events.push("down"),
    });
    kept.push(connection);
    expect(await connection.open()).toBe(true);
    const [first] = await sessions("kept-back");
    await driver.query("SELECT pg_terminate_backend($1)", [first]);
    await until(async () => {
      const now = await sessions("kept-back");
      // The server lists the session before the client has finished connecting: wait for both.
      return now.length === 1 && now[0] !== first && connection.up;
    }, "a new session, connected");
    await sleep(300); // a second connection would have been opened by now
    expect(await sessions("kept-back")).toHaveLength(1);
    expect(events).toEqual(["up", "down", "up"]);
  });

  test("runs its set-up on each new connection before it counts as up", async () => {
    let setUps = 0;
    const connection = new KeptConnection({
      url: named("kept-setup"),
      connectTimeoutMs: 2000,
      retryMs: 100,
      setUp: async (client) => {
        await client.query("LISTEN kept_setup");
        setUps++;
      },
    });
    kept.push(connection);
    await connection.open();
    const [first] = await sessions("kept-setup");
    await driver.query("SELECT pg_terminate_backend($1)", [first]);
    await until(() => setUps === 2 && connection.up, "the second set-up");
    const listening = await driver.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'kept-setup' AND query = 'LISTEN kept_setup'", []);
    expect(listening).toEqual([{ n: 1 }]);
  });

  describe("while the server cannot be reached", () => {
    let server: Server;
    let attempts = 0;
    beforeAll(async () => {
      // Accepts and hangs up at once, as a server that is starting up or going away does: each attempt fails.
      server = createServer((socket) => {
        attempts++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    test("tries again once per retry interval, not continuously, and stops trying once closed", async () => {
      const { port } = server.address() as { port: number };
      const downs: unknown[] = [];
      const connection = new KeptConnection({
        url: `postgres://postgres@127.0.0.1:${port}/db`,
        connectTimeoutMs: 2000,
        retryMs: 200,
        onDown: (err) => downs.push(err),
      });
      kept.push(connection);
      expect(await connection.open()).toBe(false);
      const start = attempts;
      await sleep(1100);
      const made = attempts - start;
      expect(made).toBeGreaterThanOrEqual(2);
      expect(made).toBeLessThanOrEqual(6);
      expect(downs).toHaveLength(1); // told once, not at every attempt
      await connection.close();
      const closedAt = attempts;
      await sleep(500);
      expect(attempts).toBe(closedAt);
    });
  });
});
