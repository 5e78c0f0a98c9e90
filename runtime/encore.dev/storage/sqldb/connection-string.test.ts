// SQLDatabase#connectionString as apps hand it to other client libraries: a plain URL
// that each of them parses and connects with, to the same database SQLDatabase queries.
import knex from "knex";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connectionsReady } from "../../../internal/sql/databases.ts";
import { SQLDatabase } from "./mod.ts";

// Not declared in the app: no migrations, each test makes its own table.
const db = new SQLDatabase("rt_connstr");
const url = db.connectionString;
const knexDb = knex({ client: "pg", connection: url, pool: { min: 0, max: 2 } });
const sql = postgres(url, { max: 2, onnotice: () => {} });

beforeAll(async () => {
  await connectionsReady();
});
// Before the per-file teardown drops the database, which would end these pools' connections.
afterAll(async () => {
  await knexDb.destroy();
  await sql.end({ timeout: 5 });
});

describe("SQLDatabase#connectionString", () => {
  test("is a plain postgres URL naming the file's own database, with no parameters of the runtime's", () => {
    const parsed = new URL(url);
    expect(parsed.protocol).toMatch(/^postgres(ql)?:$/);
    expect(parsed.pathname).toBe(`/${process.env.DATABASE_NAME_PREFIX}rt_connstr`);
    expect(parsed.hostname).not.toBe("");
    expect(parsed.port).toMatch(/^\d+$/);
    expect(parsed.searchParams.has("application_name")).toBe(false);
    expect(parsed.hash).toBe("");
  });

  test("knex with the pg client creates, writes and reads the database SQLDatabase queries", async () => {
    await knexDb.schema.createTable("knex_items", (t) => {
      t.increments("id");
      t.text("name").notNullable();
    });
    await knexDb("knex_items").insert([{ name: "from knex" }]);
    await db.exec`INSERT INTO knex_items (name) VALUES ('from encore')`;
    const names = await knexDb("knex_items").orderBy("id").pluck("name");
    expect(names).toEqual(["from knex", "from encore"]);
    expect(await db.queryRow`SELECT count(*) AS n FROM knex_items`).toEqual({ n: 2 });
  });

  test("postgres.js queries with parameters and sees rows written through SQLDatabase", async () => {
    await db.exec`CREATE TABLE pgjs_items (name text NOT NULL)`;
    await db.exec`INSERT INTO pgjs_items VALUES ('from encore')`;
    const name = "from postgres.js";
    await sql`INSERT INTO pgjs_items VALUES (${name})`;
    const rows = await sql<{ name: string }[]>`SELECT name FROM pgjs_items ORDER BY name`;
    expect(rows.map((r) => r.name)).toEqual(["from encore", "from postgres.js"]);
    const [row] = await sql<{ database: string }[]>`SELECT current_database() AS database`;
    expect(row?.database).toBe(`${process.env.DATABASE_NAME_PREFIX}rt_connstr`);
  });
});
