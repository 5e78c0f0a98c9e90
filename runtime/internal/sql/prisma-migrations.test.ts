import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { freshDriver } from "../../test/driver.ts";
import { declaredMigrations, migrationTracking } from "./databases.ts";
import type { SqlDriver } from "./driver.ts";
import { applyMigrations, MigrationError } from "./migrations.ts";
import { readPrismaMigrations } from "./prisma-migrations.ts";

// Prisma Migrate's layout, two migrations of testdata/prisma/schema.prisma.
const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), "testdata/prisma/migrations");
const declared = { migrationsDir: "prisma/migrations", migrationsSource: "prisma" } as const;

let root: string;
let dir: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "prisma-migrations-"));
  dir = path.join(root, "prisma/migrations");
  cpSync(fixture, dir, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Adds a migration folder as prisma migrate dev would. */
function addMigration(folder: string, sql: string): void {
  mkdirSync(path.join(dir, folder));
  writeFileSync(path.join(dir, folder, "migration.sql"), sql);
}

describe("reading Prisma Migrate's migrations folder", () => {
  test("each <timestamp>_<name>/migration.sql is a migration whose version is the timestamp, in timestamp order", () => {
    addMigration("20230101000000_earliest", "SELECT 1;");
    const migrations = readPrismaMigrations(root, "prisma/migrations");
    expect(migrations.map((m) => [m.version, m.name, m.file])).toEqual([
      [20230101000000, "earliest", "prisma/migrations/20230101000000_earliest/migration.sql"],
      [20240105093000, "init", "prisma/migrations/20240105093000_init/migration.sql"],
      [20240212170000, "add_posts", "prisma/migrations/20240212170000_add_posts/migration.sql"],
    ]);
    expect(migrations[1]!.sql).toContain('CREATE TABLE "User"');
  });

  test("a declared database with source prisma is read this way and tracked one row per migration", () => {
    expect(declaredMigrations(root, declared).map((m) => m.name)).toEqual(["init", "add_posts"]);
    expect(migrationTracking(declared)).toBe("each");
    expect(migrationTracking({ migrationsSource: "drizzle" })).toBe("latest");
    expect(migrationTracking({ migrationsSource: "sql" })).toBe("latest");
  });

  test("a folder not named <timestamp>_<name> is refused, naming it", () => {
    addMigration("add_comments", "SELECT 1;");
    expect(() => readPrismaMigrations(root, "prisma/migrations")).toThrowError(MigrationError);
    expect(() => readPrismaMigrations(root, "prisma/migrations")).toThrowError(
      /migration folder prisma\/migrations\/add_comments is badly named: expected <timestamp>_<name>/,
    );
  });

  test("a migration folder without migration.sql, or two sharing a timestamp, are refused", () => {
    mkdirSync(path.join(dir, "20240301000000_empty"));
    expect(() => readPrismaMigrations(root, "prisma/migrations")).toThrowError(
      /migration prisma\/migrations\/20240301000000_empty\/migration\.sql is missing/,
    );
    rmSync(path.join(dir, "20240301000000_empty"), { recursive: true });
    addMigration("20240105093000_again", "SELECT 1;");
    expect(() => readPrismaMigrations(root, "prisma/migrations")).toThrowError(/share version 20240105093000/);
  });

  test("migrations locked to another provider are refused; a folder without the lock file is read", () => {
    writeFileSync(path.join(dir, "migration_lock.toml"), 'provider = "sqlite"\n');
    expect(() => readPrismaMigrations(root, "prisma/migrations")).toThrowError(
      /migration_lock\.toml names the provider "sqlite"; these migrations need provider = "postgresql"/,
    );
    rmSync(path.join(dir, "migration_lock.toml"));
    expect(readPrismaMigrations(root, "prisma/migrations")).toHaveLength(2);
  });
});

describe("applying Prisma migrations", () => {
  let driver: SqlDriver;
  let drop: () => Promise<void>;

  beforeEach(async () => {
    ({ driver, drop } = await freshDriver());
  });
  afterEach(async () => {
    await drop();
  });

  const migrate = () => applyMigrations(driver, declaredMigrations(root, declared), migrationTracking(declared));

  test("migrates a real database and records each applied migration in schema_migrations, as Encore does", async () => {
    const applied = await migrate();
    expect(applied.map((m) => m.version)).toEqual([20240105093000, 20240212170000]);
    const users = await driver.query(`INSERT INTO "User" (email) VALUES ('a@example.com') RETURNING id`, []);
    await driver.query(`INSERT INTO "Post" (title, "authorId") VALUES ('hello', $1)`, [users[0]!.id]);
    // The foreign key of the second migration holds.
    await expect(driver.query(`INSERT INTO "Post" (title, "authorId") VALUES ('orphan', 999)`, [])).rejects.toThrow(/Post_authorId_fkey/);
    expect(await driver.query("SELECT version, dirty FROM schema_migrations ORDER BY version", [])).toEqual([
      { version: 20240105093000, dirty: false },
      { version: 20240212170000, dirty: false },
    ]);
  });

  test("running again applies nothing; a migration merged later with an older timestamp is still applied", async () => {
    await migrate();
    expect(await migrate()).toEqual([]);

    // Made on a branch before add_posts, merged after it was applied.
    addMigration("20240201120000_add_user_name", `ALTER TABLE "User" ADD COLUMN "name" TEXT;`);
    addMigration("20240301080000_add_post_body", `ALTER TABLE "Post" ADD COLUMN "body" TEXT;`);
    const applied = await migrate();
    expect(applied.map((m) => m.name)).toEqual(["add_user_name", "add_post_body"]);
    expect(
      await driver.query(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name IN ('name', 'body') ORDER BY table_name",
        [],
      ),
    ).toEqual([
      { table_name: "Post", column_name: "body" },
      { table_name: "User", column_name: "name" },
    ]);
    expect((await driver.query("SELECT version FROM schema_migrations ORDER BY version", [])).map((r) => r.version)).toEqual([
      20240105093000, 20240201120000, 20240212170000, 20240301080000,
    ]);
  });

  test("a failing migration names its file, leaves nothing of itself, and keeps the ones before it", async () => {
    addMigration("20240301000000_broken", `CREATE TABLE "Half" (id int);\nINSERT INTO "Nowhere" VALUES (1);`);
    await expect(migrate()).rejects.toThrowError(/prisma\/migrations\/20240301000000_broken\/migration\.sql failed: .*Nowhere/);
    expect(await driver.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'Half'", [])).toEqual([]);
    expect(await driver.query("SELECT count(*) AS n FROM schema_migrations WHERE NOT dirty", [])).toEqual([{ n: 2 }]);
  });

  test("a migration left dirty stops the migrator until repaired", async () => {
    await migrate();
    await driver.query("UPDATE schema_migrations SET dirty = true WHERE version = 20240105093000", []);
    addMigration("20240301000000_more", "SELECT 1;");
    await expect(migrate()).rejects.toThrowError(/dirty at version 20240105093000/);
  });
});
