// An app whose migration creates an extension, started as a user starts it: on the embedded
// PostgreSQL, which does not carry pgvector, start stops with a message that says so and
// names DATABASE_URL; with DATABASE_URL set, the migration runs on that server and its own
// answer is reported as it is.
import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { appRoot, runtimeDir } from "../config/app-root.ts";
import { runToEnd, userEnv } from "../../test/command.ts";
import { dropDatabasesWithPrefix } from "../../test/databases.ts";
import { tempDataDir } from "../../vitest/temp-dir.ts";
import { missingExtension } from "./missing-extension.ts";

const work = tempDataDir("missing-extension-");
const app = path.join(work, "vectors");
const main = path.join(runtimeDir(), "cli", "main.mjs");
const migration = "hello/migrations/1_embeddings.up.sql";
const prefix = `missing_ext_${process.pid}_`;

beforeAll(() => {
  // The hello-world fixture app, plus a database whose first migration needs pgvector.
  cpSync(path.join(runtimeDir(), "testdata", "apps", "hello-world"), app, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|encore\.gen|\.data)$/.test(src) && !src.endsWith(".test.ts"),
  });
  symlinkSync(path.join(appRoot, "node_modules"), path.join(app, "node_modules"));
  writeFileSync(
    path.join(app, "hello", "db.ts"),
    `import { SQLDatabase } from "encore.dev/storage/sqldb";\n\nexport const db = new SQLDatabase("embeddings", { migrations: "./migrations" });\n`,
  );
  mkdirSync(path.join(app, "hello", "migrations"));
});

function migrationNeeds(extension: string): void {
  writeFileSync(
    path.join(app, migration),
    `CREATE EXTENSION IF NOT EXISTS ${extension};\nCREATE TABLE documents (id BIGSERIAL PRIMARY KEY, body text NOT NULL);\n`,
  );
}
afterAll(async () => {
  await dropDatabasesWithPrefix(process.env.DATABASE_URL!, prefix);
  rmSync(work, { recursive: true, force: true });
});

describe("a migration that needs an extension the embedded PostgreSQL lacks", () => {
  test("stops start on the embedded server with a message naming the extension, the migration and DATABASE_URL", async () => {
    migrationNeeds("vector");
    const env = userEnv({ PORT: "0", DATA_DIR: path.join(work, "data") });
    const { code, output } = await runToEnd(process.execPath, [main, "start"], app, env);
    expect(code, output).not.toBe(0);
    expect(output).toContain(
      `migration ${migration} needs the PostgreSQL extension "vector" (pgvector), which the embedded PostgreSQL does not carry`,
    );
    expect(output).toMatch(/Set DATABASE_URL to a PostgreSQL server that has pgvector installed/);
  }, 180_000);

  test("stops test on the run's embedded server with the same message, naming TEST_DATABASE_URL, and leaves no server running", async () => {
    migrationNeeds("vector");
    writeFileSync(path.join(app, "hello", "db.test.ts"), `import { expect, test } from "vitest";\ntest("runs", () => expect(1).toBe(1));\n`);
    try {
      // Its own temporary folder, where the run's cluster lives while it runs.
      const tmp = path.join(work, "tmp");
      mkdirSync(tmp);
      const { code, output } = await runToEnd(process.execPath, [main, "test"], app, userEnv({ DATA_DIR: path.join(work, "data-test"), TMPDIR: tmp }));
      expect(code, output).not.toBe(0);
      expect(output).toContain(`migration ${migration} needs the PostgreSQL extension "vector" (pgvector)`);
      expect(output).toMatch(/Set TEST_DATABASE_URL to a PostgreSQL server that has pgvector installed/);
      expect(readdirSync(tmp).filter((entry) => entry.startsWith("encore-test-pg-"))).toEqual([]);
    } finally {
      rmSync(path.join(app, "hello", "db.test.ts"));
    }
  }, 180_000);

  test("with DATABASE_URL, runs on that server and reports its answer unchanged", async () => {
    // An extension no server has, so that the run's server (whichever it is) refuses it in its own words.
    migrationNeeds("encore_selfhost_no_such_extension");
    const env = userEnv({ PORT: "0", DATA_DIR: path.join(work, "data-url"), DATABASE_URL: process.env.DATABASE_URL!, DATABASE_NAME_PREFIX: prefix });
    const { code, output } = await runToEnd(process.execPath, [main, "start"], app, env);
    expect(code, output).not.toBe(0);
    expect(output).toContain(`migration ${migration} failed: extension "encore_selfhost_no_such_extension" is not available`);
    expect(output).not.toMatch(/embedded PostgreSQL does not carry/);
  }, 180_000);
});

describe("missingExtension", () => {
  test("reads the extension from PostgreSQL's error, in the cause chain too, and nothing from other errors", () => {
    const pgError = Object.assign(new Error('extension "postgis" is not available'), { code: "0A000" });
    expect(missingExtension(pgError)).toBe("postgis");
    expect(missingExtension(new Error("migration failed", { cause: pgError }))).toBe("postgis");
    expect(missingExtension(Object.assign(new Error("cached plan must not change result type"), { code: "0A000" }))).toBeNull();
    expect(missingExtension(new Error('extension "vector" is not available'))).toBeNull();
  });
});
