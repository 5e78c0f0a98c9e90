import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { aliasTarget } from "./runtime/loader/aliases.mjs";

// With TEST_DATABASE_URL set, every database test runs twice: on embedded PGlite
// and on that PostgreSQL server.
const postgresUrl = process.env.TEST_DATABASE_URL?.trim();
// With TEST_NATS_URL set, the NATS provider's own tests run, and the pub/sub tests
// of the app run a third time with messages carried by NATS.
const natsUrl = process.env.TEST_NATS_URL?.trim();
const needsNats = "**/*.nats.test.ts";

const projects: TestProjectInlineConfiguration[] = [
  {
    extends: true,
    test: {
      name: "pglite",
      include: ["**/*.test.ts"],
      env: { DATABASE_URL: "", PGLITE_STORAGE: "memory" },
      exclude: ["**/node_modules/**", "**/testdata/**", "encore.gen/**", needsNats],
    },
  },
];
if (postgresUrl) {
  projects.push({
    extends: true,
    test: {
      name: "postgres",
      include: ["**/*.test.ts"],
      env: { DATABASE_URL: postgresUrl },
      // Pure parsing, configuration and object-store tests (local files, or the S3
      // provider's own in-process S3 server) touch no database: once is enough.
      exclude: [
        "**/node_modules/**",
        "**/testdata/**",
        "encore.gen/**",
        "runtime/internal/parser/**",
        "runtime/internal/config/**",
        "runtime/internal/objects/**",
        "runtime/encore.dev/storage/objects/**",
        "**/*.pglite.test.ts",
        needsNats,
      ],
    },
  });
}
if (natsUrl) {
  projects.push({
    extends: true,
    test: {
      name: "nats",
      env: { DATABASE_URL: "", PGLITE_STORAGE: "memory", NATS_URL: natsUrl },
      include: [needsNats, "test/events.http.test.ts", "runtime/internal/server/pubsub-admin.test.ts"],
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
    // Each project names its own files: a project's list adds to this one, it does not replace it.
    exclude: ["**/node_modules/**", "**/testdata/**", "encore.gen/**"],
    globalSetup: ["./runtime/test/global-setup.ts"],
    setupFiles: ["./runtime/test/per-file-setup.ts"],
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "silent", PUBLIC_BASE_URL: "https://sho.rt" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects,
  },
});
