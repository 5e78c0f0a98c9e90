// Each test file gets its own databases: in memory on PGlite, or under a unique
// name prefix on PostgreSQL, dropped when the file is done. Files never share state.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { dropTestDatabases } from "./databases.ts";

process.env.DATABASE_NAME_PREFIX = `test_${randomBytes(4).toString("hex")}_`;

// Connection strings handed out while the test file's modules loaded are served before tests start.
beforeAll(async () => {
  const { connectionsReady } = await import("../internal/sql/databases.ts");
  await connectionsReady();
});

afterAll(async () => {
  await dropTestDatabases();
});
