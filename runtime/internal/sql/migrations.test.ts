import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { freshDriver } from "../../test/driver.ts";
import type { SqlDriver } from "./driver.ts";
import { applyMigrations, MigrationError, readMigrations } from "./migrations.ts";

let driver: SqlDriver;
let drop: () => Promise<void>;
let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "migrations-"));
});

function write(files: Record<string, string>): void {
  for (const [name, sql] of Object.entries(files)) writeFileSync(path.join(root, name), sql);
}

async function tracked(): Promise<unknown[]> {
  return driver.query("SELECT version, dirty FROM schema_migrations", []);
}

describe("reading a migrations folder", () => {
  test("sorts by number, not by name, and ignores down migrations", () => {
    write({
      "10_c.up.sql": "SELECT 1",
      "2_b.up.sql": "SELECT 1",
      "1_a.up.sql": "SELECT 1",
      "1_a.down.sql": "SELECT 1",
      "README.md": "notes",
    });
    expect(readMigrations("/", root).map((m) => m.version)).toEqual([1, 2, 10]);
  });

  test("a badly named .sql file is an error naming the file", () => {
    write({ "1_a.up.sql": "SELECT 1", "create_table.sql": "SELECT 1" });
    expect(() => readMigrations("/", root)).toThrowError(/create_table\.sql is badly named/);
  });

  test("two migrations with one version are an error", () => {
    write({ "1_a.up.sql": "SELECT 1", "001_b.up.sql": "SELECT 1" });
    expect(() => readMigrations("/", root)).toThrowError(/share version 1/);
  });
});

describe("applying migrations", () => {
  beforeEach(async () => {
    ({ driver, drop } = await freshDriver());
  });
  afterEach(async () => {
    await drop();
  });

  test("applies in numeric order and records the latest version as Encore does", async () => {
    write({
      "1_create.up.sql": "CREATE TABLE t (id int PRIMARY KEY);",
      "2_add.up.sql": "ALTER TABLE t ADD COLUMN name text; INSERT INTO t VALUES (1, 'one');",
      "10_more.up.sql": "ALTER TABLE t ADD COLUMN extra text DEFAULT 'x';",
    });
    const applied = await applyMigrations(driver, readMigrations("/", root));
    expect(applied.map((m) => m.version)).toEqual([1, 2, 10]);
    expect(await driver.query("SELECT id, name, extra FROM t", [])).toEqual([{ id: 1, name: "one", extra: "x" }]);
    expect(await tracked()).toEqual([{ version: 10, dirty: false }]);
  });

  test("running again applies nothing; a new file applies alone", async () => {
    write({ "1_create.up.sql": "CREATE TABLE t (id int);" });
    await applyMigrations(driver, readMigrations("/", root));
    expect(await applyMigrations(driver, readMigrations("/", root))).toEqual([]);

    write({ "2_insert.up.sql": "INSERT INTO t VALUES (7);" });
    const applied = await applyMigrations(driver, readMigrations("/", root));
    expect(applied.map((m) => m.file)).toEqual([`${root}/2_insert.up.sql`]);
    expect(await driver.query("SELECT id FROM t", [])).toEqual([{ id: 7 }]);
    expect(await tracked()).toEqual([{ version: 2, dirty: false }]);
  });

  test("a failing migration names its file and the SQL error, and leaves nothing half-applied", async () => {
    write({
      "1_ok.up.sql": "CREATE TABLE t (id int);",
      "2_broken.up.sql": "CREATE TABLE half (id int); INSERT INTO nowhere VALUES (1);",
      "3_never.up.sql": "CREATE TABLE never (id int);",
    });
    const failure = applyMigrations(driver, readMigrations("/", root));
    await expect(failure).rejects.toBeInstanceOf(MigrationError);
    await expect(failure).rejects.toThrowError(/2_broken\.up\.sql failed: .*nowhere/);

    const tables = await driver.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
      [],
    );
    expect(tables).toEqual([{ table_name: "schema_migrations" }, { table_name: "t" }]);
    expect(await tracked()).toEqual([{ version: 1, dirty: false }]);
  });

  test("a database marked dirty is refused", async () => {
    write({ "1_ok.up.sql": "SELECT 1;", "2_next.up.sql": "SELECT 1;" });
    await applyMigrations(driver, readMigrations("/", root).slice(0, 1));
    await driver.execScript("UPDATE schema_migrations SET dirty = true");
    await expect(applyMigrations(driver, readMigrations("/", root))).rejects.toThrowError(/dirty at version 1/);
  });
});
