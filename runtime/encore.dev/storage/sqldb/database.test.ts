import pg from "pg";
import { describe, expect, test } from "vitest";
import { SQLDatabase } from "./mod.ts";

// Not declared in the app, so it opens with no migrations: each test makes its own table.
const db = new SQLDatabase("rt_sqldb");

describe("SQLDatabase", () => {
  test("tagged templates send values as parameters, never as SQL text", async () => {
    await db.exec`CREATE TABLE params (v text)`;
    const sneaky = "x'); DROP TABLE params; --";
    await db.exec`INSERT INTO params (v) VALUES (${sneaky})`;
    expect(await db.queryRow`SELECT v FROM params`).toEqual({ v: sneaky });
  });

  test("queryRow is null when nothing matches; query and queryAll yield every row", async () => {
    await db.exec`CREATE TABLE nums (n int)`;
    await db.rawExec("INSERT INTO nums SELECT generate_series(1, $1::int)", 5);
    expect(await db.queryRow`SELECT n FROM nums WHERE n = ${99}`).toBeNull();
    const seen: number[] = [];
    for await (const row of db.query<{ n: number }>`SELECT n FROM nums ORDER BY n`) seen.push(row.n);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(await db.rawQueryAll("SELECT n FROM nums WHERE n > $1 ORDER BY n", 3)).toEqual([{ n: 4 }, { n: 5 }]);
  });

  test("types match across engines: int8 as number, numeric as string, timestamptz as Date, jsonb parsed", async () => {
    const row = await db.queryRow`
      SELECT count(*) AS c, 1.50::numeric AS money, now() AS at, '{"a":[1]}'::jsonb AS doc`;
    expect(row).toMatchObject({ c: 1, money: "1.50", doc: { a: [1] } });
    expect(row?.at).toBeInstanceOf(Date);
  });

  test("a committed transaction is visible; a rolled-back one leaves nothing", async () => {
    await db.exec`CREATE TABLE tx (v int)`;
    const kept = await db.begin();
    await kept.exec`INSERT INTO tx VALUES (1)`;
    await kept.commit();

    const undone = await db.begin();
    await undone.exec`INSERT INTO tx VALUES (2)`;
    expect(await undone.queryAll`SELECT v FROM tx ORDER BY v`).toEqual([{ v: 1 }, { v: 2 }]);
    await undone.rollback();

    expect(await db.queryAll`SELECT v FROM tx`).toEqual([{ v: 1 }]);
  });

  test("a transaction left by `await using` without commit is rolled back", async () => {
    await db.exec`CREATE TABLE disposed (v int)`;
    {
      await using tx = await db.begin();
      await tx.exec`INSERT INTO disposed VALUES (1)`;
    }
    expect(await db.queryAll`SELECT v FROM disposed`).toEqual([]);
  });

  test("a failed statement inside a transaction surfaces, and rollback recovers", async () => {
    const tx = await db.begin();
    await expect(tx.exec`SELECT * FROM missing_table`).rejects.toThrow(/missing_table/);
    await tx.rollback();
    expect(await db.queryRow`SELECT 1 AS ok`).toEqual({ ok: 1 });
  });

  test("connectionString lets another client library connect", async () => {
    await db.exec`CREATE TABLE shared (v text)`;
    await db.exec`INSERT INTO shared VALUES ('from encore')`;
    const { connectionsReady } = await import("../../../internal/sql/databases.ts");
    const url = db.connectionString;
    await connectionsReady();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      expect((await client.query("SELECT v FROM shared")).rows).toEqual([{ v: "from encore" }]);
    } finally {
      await client.end();
    }
  });
});
