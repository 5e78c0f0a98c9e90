// Which failures mean "the database cannot be reached now", on errors node-postgres
// and drizzle really produce: a closed port, a terminated session, a pool with no
// free connection, and ordinary SQL errors that must not be mistaken for them.
import { drizzle } from "drizzle-orm/node-postgres";
import { sql } from "drizzle-orm";
import { DrizzleQueryError } from "drizzle-orm/errors";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { refusedConnection, stoppedServerUrl } from "../../test/closed-port.ts";
import { freshDriver } from "../../test/driver.ts";
import { APIError, ErrCode } from "../errors/api-error.ts";
import type { SqlDriver } from "./driver.ts";
import { asUnavailable, isConnectionFailure, unavailableFor } from "./unavailable.ts";

let driver: SqlDriver;
let drop: () => Promise<void>;
let url: string;
let closedUrl: string;

async function failure(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (err) {
    return err;
  }
  throw new Error("expected a failure");
}

beforeAll(async () => {
  ({ driver, drop, connectionString: url } = await freshDriver());
  closedUrl = await stoppedServerUrl();
});
afterAll(() => drop());

describe("a connection failure", () => {
  test("is a refused connection", async () => {
    const client = new pg.Client({ connectionString: closedUrl });
    const err = await failure(() => client.connect());
    expect(err).toMatchObject({ code: "ECONNREFUSED" });
    expect(isConnectionFailure(err)).toBe(true);
  });

  test("is a session the server ended, and every later query on its client", async () => {
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => {});
    await client.connect();
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    const running = failure(() => client.query("SELECT pg_sleep(10)"));
    await new Promise((r) => setTimeout(r, 100));
    await driver.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
    const ended = await running;
    expect(ended).toMatchObject({ code: "57P01" });
    expect(isConnectionFailure(ended)).toBe(true);
    const after = await failure(() => client.query("SELECT 1"));
    expect(isConnectionFailure(after)).toBe(true);
    await client.end();
  });

  test("is a pool with no connection free within its timeout", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 100 });
    const held = await pool.connect();
    const err = await failure(() => pool.query("SELECT 1"));
    expect((err as Error).message).toMatch(/timeout exceeded when trying to connect/);
    expect(isConnectionFailure(err)).toBe(true);
    held.release();
    await pool.end();
  });

  test("is found inside drizzle's DrizzleQueryError and APIErrors that wrap it", async () => {
    const orm = drizzle(closedUrl);
    const err = await failure(() => orm.execute(sql`SELECT 1`));
    expect(err).toBeInstanceOf(DrizzleQueryError);
    expect(isConnectionFailure(err)).toBe(true);
    const wrapped = APIError.internal("auth handler failed", APIError.internal("call to users.exists failed", err as Error));
    expect(isConnectionFailure(wrapped)).toBe(true);
    await orm.$client.end();
  });

  test("is found among an AggregateError's errors and in either half of a SuppressedError", async () => {
    const refused = await refusedConnection();
    // Node reports a host with several addresses, each refused, as one AggregateError.
    expect(isConnectionFailure(new AggregateError([refused], ""))).toBe(true);
    // `await using` whose disposal fails after the body failed: both are kept.
    const disposeFails = await failure(async () => {
      await using _resource = { [Symbol.asyncDispose]: () => Promise.reject(refused) };
      throw new Error("the body failed first");
    });
    expect((disposeFails as Error).name).toBe("SuppressedError");
    expect(isConnectionFailure(disposeFails)).toBe(true);
  });
});

describe("not a connection failure", () => {
  test("a statement the server refuses, a broken constraint, a bug", async () => {
    const syntax = await failure(() => driver.query("SELEC 1", []));
    expect(syntax).toMatchObject({ code: "42601" });
    await driver.execScript("CREATE TABLE once (n int PRIMARY KEY); INSERT INTO once VALUES (1)");
    const duplicate = await failure(() => driver.query("INSERT INTO once VALUES (1)", []));
    expect(duplicate).toMatchObject({ code: "23505" });
    for (const err of [syntax, duplicate, new TypeError("x is undefined"), "a string", null]) {
      expect(isConnectionFailure(err)).toBe(false);
      expect(unavailableFor(err)).toBeNull();
    }
  });

  test("an error that wraps itself ends the search", () => {
    const loop = new Error("loop") as Error & { cause?: unknown };
    loop.cause = loop;
    expect(isConnectionFailure(loop)).toBe(false);
  });
});

describe("answering with unavailable", () => {
  test("asUnavailable wraps a connection failure, keeping it as the cause, and leaves others alone", async () => {
    const refused = await refusedConnection();
    const mapped = asUnavailable(refused, "url") as APIError;
    expect(mapped).toBeInstanceOf(APIError);
    expect(mapped).toMatchObject({ code: ErrCode.Unavailable, message: "database url is unavailable" });
    expect(mapped.cause).toBe(refused);
    const bug = new TypeError("x");
    expect(asUnavailable(bug, "url")).toBe(bug);
  });

  test("unavailableFor keeps the driver's own unavailable error, or makes one around a foreign client's", async () => {
    const refused = await refusedConnection();
    const fromDriver = asUnavailable(refused, "url") as APIError;
    expect(unavailableFor(APIError.internal("call to url.get failed", fromDriver))).toBe(fromDriver);
    const foreign = unavailableFor(refused)!;
    expect(foreign).toMatchObject({ code: ErrCode.Unavailable, message: "the database is unavailable; please retry" });
    expect(foreign.cause).toBe(refused);
  });
});
