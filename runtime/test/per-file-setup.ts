// Each test file gets its own databases: in memory on PGlite, or under a unique
// name prefix on PostgreSQL, dropped when the file is done. Files never share state.
// Likewise its own DATA_DIR (local object storage), removed when the file is done.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { dropTestDatabases } from "./databases.ts";

process.env.DATABASE_NAME_PREFIX = `test_${randomBytes(4).toString("hex")}_`;
const dataDir = mkdtempSync(path.join(tmpdir(), "encore-test-"));
process.env.DATA_DIR = dataDir;

// Connection strings handed out while the test file's modules loaded are served before tests start.
beforeAll(async () => {
  const { connectionsReady } = await import("../internal/sql/databases.ts");
  await connectionsReady();
});

afterAll(async () => {
  await dropTestDatabases();
  const { stopObjects } = await import("../internal/objects/mod.ts");
  await stopObjects();
  rmSync(dataDir, { recursive: true, force: true });
});
