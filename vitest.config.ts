import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { aliasTarget } from "./runtime/loader/aliases.mjs";

// With TEST_DATABASE_URL set, every database test runs twice: on embedded PGlite
// and on that PostgreSQL server.
const postgresUrl = process.env.TEST_DATABASE_URL?.trim();

const projects: TestProjectInlineConfiguration[] = [
  { extends: true, test: { name: "pglite", env: { DATABASE_URL: "", PGLITE_STORAGE: "memory" } } },
];
if (postgresUrl) {
  projects.push({
    extends: true,
    test: {
      name: "postgres",
      env: { DATABASE_URL: postgresUrl },
      // Pure parsing and configuration tests touch no database: once is enough.
      exclude: ["**/node_modules/**", "runtime/internal/parser/**", "runtime/internal/config/**", "**/*.pglite.test.ts"],
    },
  });
}

export default defineConfig({
  plugins: [
    {
      // encore.dev/* and ~encore/* resolve to this runtime, as under `npm start`.
      name: "encore-selfhost-aliases",
      enforce: "pre",
      resolveId: (id: string) => aliasTarget(id),
    },
  ],
  test: {
    include: ["**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/testdata/**", "encore.gen/**"],
    globalSetup: ["./runtime/test/global-setup.ts"],
    setupFiles: ["./runtime/test/per-file-setup.ts"],
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "silent", PUBLIC_BASE_URL: "https://sho.rt" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects,
  },
});
