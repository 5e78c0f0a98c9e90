import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { aliasTarget } from "./runtime/loader/aliases.mjs";

// Database tests run on one PostgreSQL server per run (runtime/test/test-server.ts):
// an embedded cluster started for the run, or TEST_DATABASE_URL's server when set.
const serverName = process.env.TEST_DATABASE_URL?.trim() ? "postgres" : "embedded";
// With TEST_NATS_URL set, the NATS provider's own tests run, and the pub/sub tests
// of the app run a second time with messages carried by NATS.
const natsUrl = process.env.TEST_NATS_URL?.trim();
const needsNats = "**/*.nats.test.ts";

const projects: TestProjectInlineConfiguration[] = [
  {
    extends: true,
    test: {
      name: serverName,
      include: ["**/*.test.ts"],
      exclude: ["**/node_modules/**", "**/testdata/**", "encore.gen/**", needsNats],
    },
  },
];
if (natsUrl) {
  projects.push({
    extends: true,
    test: {
      name: "nats",
      env: { NATS_URL: natsUrl },
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
