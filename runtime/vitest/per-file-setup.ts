// Each test file gets its own databases, named with a prefix of its own and made
// as copies of the run's migrated templates, dropped when the file is done; and its
// own DATA_DIR (local object storage), removed when the file is done; its cache keys
// carry the same prefix (on Redis too) and are deleted when it is done. Files never
// share state.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import { dropTestDatabases } from "./databases.ts";

const server = inject("databaseServer");
process.env.DATABASE_URL = server.url;
process.env.DATABASE_NAME_PREFIX = `test_${randomBytes(4).toString("hex")}_`;
const dataDir = mkdtempSync(path.join(tmpdir(), "encore-test-"));
process.env.DATA_DIR = dataDir;

const { serveConnectionStrings, useTemplateDatabases } = await import("../internal/sql/databases.ts");
// The file's databases are dropped when it ends, which ends the connections of the app's
// own pools too (drizzle on connectionString, as Encore's example does it); under Encore
// a database outlives the process. Their "error" event must not fail the run.
const { guardUnheardPgErrors } = await import("../internal/sql/pg-error-guard.ts");
const { appRoot } = await import("../internal/config/app-root.ts");
guardUnheardPgErrors(() => {}, appRoot);
useTemplateDatabases((name) => (server.templates.includes(name) ? server.templatePrefix + name : undefined));
// The run's server is up: a connection string handed out is served at once, also to a module a test imports late.
serveConnectionStrings();

// Connection strings handed out while the test file's modules loaded are served before tests start.
beforeAll(async () => {
  const { connectionsReady } = await import("../internal/sql/databases.ts");
  await connectionsReady();
});

afterAll(async () => {
  await dropTestDatabases();
  const { stopObjects } = await import("../internal/objects/mod.ts");
  await stopObjects();
  const { deleteTestKeys, stopCache } = await import("../internal/cache/mod.ts");
  await deleteTestKeys();
  await stopCache();
  rmSync(dataDir, { recursive: true, force: true });
});
