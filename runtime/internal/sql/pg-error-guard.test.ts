// Pools and clients an app makes itself, with no "error" listener (drizzle's pool as
// most apps leave it, and the client drizzle checks out for a transaction), on a real
// server that ends their sessions under them. Unguarded, each of these kills the process.
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freshDriver } from "../../test/driver.ts";
import { appRoot } from "../config/app-root.ts";
import type { SqlDriver } from "./driver.ts";
import { guardUnheardPgErrors } from "./pg-error-guard.ts";
import { isConnectionFailure } from "./unavailable.ts";

let driver: SqlDriver;
let drop: () => Promise<void>;
let url: string;
const unheard: { err: unknown; emitter: string }[] = [];
const pools: { end(): Promise<void> }[] = [];

beforeAll(async () => {
  ({ driver, drop, connectionString: url } = await freshDriver());
  guardUnheardPgErrors((err, emitter) => unheard.push({ err, emitter }), appRoot);
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await drop();
});

/** drizzle(connectionString) as an app writes it; its connections carry `name`, so the test can end them. */
function appOrm(name: string) {
  const withName = new URL(url);
  withName.searchParams.set("application_name", name);
  const orm = drizzle(withName.href);
  pools.push(orm.$client);
  return orm;
}

async function terminate(where: string, value: string | number): Promise<void> {
  const rows = await driver.query(`SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE ${where} = $1`, [value]);
  expect(rows).toEqual([{ ended: true }]);
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 5000; !check(); await new Promise((r) => setTimeout(r, 10))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

const reported = (emitter: string) => unheard.filter((u) => u.emitter === emitter && isConnectionFailure(u.err)).length;

describe("with node-postgres guarded", () => {
  test("an idle connection of a pool nobody listens on is lost: reported, not thrown, and the pool serves the next query", async () => {
    const orm = appOrm("guard-idle");
    await orm.execute(sql`SELECT 1`);
    expect(orm.$client.listenerCount("error")).toBe(0);
    const before = reported("pg.Pool");
    await terminate("application_name", "guard-idle");
    await until(() => reported("pg.Pool") > before, "the pool's unheard error");
    const { rows } = await orm.execute<{ n: number }>(sql`SELECT 2 AS n`);
    expect(rows).toEqual([{ n: 2 }]);
  });

  test("the connection of a drizzle transaction is lost mid-way: reported, the transaction fails as a connection failure, the pool goes on", async () => {
    const orm = appOrm("guard-tx");
    await orm.execute(sql`CREATE TABLE IF NOT EXISTS marks (n int)`);
    const before = reported("pg.Client");
    const outcome = await orm
      .transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO marks VALUES (1)`);
        const { rows } = await tx.execute<{ pid: number }>(sql`SELECT pg_backend_pid() AS pid`);
        // Ended between two statements: the checked-out client is idle, with no listener.
        await terminate("pid", rows[0]!.pid);
        await until(() => reported("pg.Client") > before, "the checked-out client's unheard error");
        await tx.execute(sql`INSERT INTO marks VALUES (2)`);
      })
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(isConnectionFailure(outcome)).toBe(true);
    const { rows } = await orm.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM marks`);
    expect(rows).toEqual([{ n: 0 }]); // the server rolled the transaction back
  });

  test("an event that has a listener still reaches it, and is not reported", async () => {
    const orm = appOrm("guard-heard");
    const heard: unknown[] = [];
    orm.$client.on("error", (err) => heard.push(err));
    await orm.execute(sql`SELECT 1`);
    const before = unheard.length;
    await terminate("application_name", "guard-heard");
    await until(() => heard.length > 0, "the listener");
    expect(isConnectionFailure(heard[0])).toBe(true);
    expect(unheard.length).toBe(before);
  });
});
