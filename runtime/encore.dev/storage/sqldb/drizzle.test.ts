import path from "node:path";
import { fileURLToPath } from "node:url";
import { asc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connectionsReady, openDatabase } from "../../../internal/sql/databases.ts";
import { readDrizzleMigrations } from "../../../internal/sql/drizzle-migrations.ts";
import { applyMigrations } from "../../../internal/sql/migrations.ts";
import { notes } from "../../../internal/sql/testdata/drizzle/schema.ts";
import { SQLDatabase } from "./mod.ts";

// As Encore documents it: drizzle(db.connectionString), a pool of drizzle's own on
// the same PostgreSQL database. The database is not declared in the app, so the
// fixture's drizzle-kit migrations are applied here, by the runtime's migrator.
const db = new SQLDatabase("rt_drizzle");
const orm = drizzle(db.connectionString);
// The per-file teardown drops the database WITH (FORCE), which can end pooled
// connections while they close; unheard, that error would fail the run.
orm.$client.on("error", () => {});
const sqlDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../internal/sql");

beforeAll(async () => {
  await applyMigrations(await openDatabase("rt_drizzle"), readDrizzleMigrations(sqlDir, "testdata/drizzle/migrations"));
  await connectionsReady();
});
afterAll(async () => {
  await orm.$client.end();
});

describe("drizzle(db.connectionString)", () => {
  test("inserts and selects with drizzle's query builder", async () => {
    const [created] = await orm.insert(notes).values({ title: "hello", tags: ["a", "b"] }).returning();
    expect(created).toMatchObject({ title: "hello", tags: ["a", "b"] });
    expect(created!.createdAt).toBeInstanceOf(Date);

    const found = await orm.select({ id: notes.id, title: notes.title }).from(notes).where(eq(notes.id, created!.id));
    expect(found).toEqual([{ id: created!.id, title: "hello" }]);
  });

  test("rows written by drizzle and by SQLDatabase are one database", async () => {
    await db.exec`INSERT INTO notes (title) VALUES ('from encore')`;
    await orm.insert(notes).values({ title: "from drizzle" });
    const titles = await orm.select({ title: notes.title }).from(notes).orderBy(asc(notes.id));
    expect(titles.map((t) => t.title)).toEqual(expect.arrayContaining(["from encore", "from drizzle"]));
    expect(await db.queryRow`SELECT count(*) AS n FROM notes WHERE title = 'from drizzle'`).toEqual({ n: 1 });
  });

  test("concurrent queries use several pool connections, and a drizzle transaction commits", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => orm.insert(notes).values({ title: `c${i}` }).returning()));
    expect(results.flat()).toHaveLength(8);
    await orm.transaction(async (tx) => {
      await tx.insert(notes).values({ title: "in tx" });
    });
    expect(await orm.select().from(notes).where(eq(notes.title, "in tx"))).toHaveLength(1);
  });
});
