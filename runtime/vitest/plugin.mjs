// The vitest plugin that makes a test run an `encore test` run: the app's encore.dev/*
// and ~encore/* imports resolve to this runtime and to encore.gen/, one PostgreSQL server
// serves the run, and each test file gets fresh databases. `encore-selfhost test` adds
// it by itself; an app that runs vitest directly lists it in its config:
//   import { encoreSelfhost } from "encore-selfhost/vitest";
//   export default defineConfig({ plugins: [encoreSelfhost()] });
// It works with the app's vitest, 1 to 4: it uses only the config keys all four read.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { aliasTarget } from "../loader/aliases.mjs";

const vitestDir = path.dirname(fileURLToPath(import.meta.url));
const globalSetup = path.join(vitestDir, "global-setup.ts");

/** @returns {import("vite").Plugin} */
export function encoreSelfhost() {
  return {
    name: "encore-selfhost",
    enforce: "pre",
    resolveId: (id, importer) => aliasTarget(id, importer),
    async config(config) {
      // Listed by the app and added again by the test command: set up once.
      if ([config.test?.globalSetup ?? []].flat().includes(globalSetup)) return null;
      // The running vitest's own exclusions (they differ between versions), and the app's generated code and data.
      const { defaultExclude } = await import("vitest/config");
      return {
        test: {
          globalSetup: [globalSetup],
          setupFiles: [path.join(vitestDir, "per-file-setup.ts")],
          exclude: [...defaultExclude, "encore.gen/**", ".data/**"],
          // Tests open databases and servers: the defaults (5 s) are for pure functions.
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // When installed from npm, this runtime's TypeScript sits in node_modules: vitest
          // must transform it rather than hand it to Node.
          server: { deps: { inline: [/encore-selfhost/] } },
        },
      };
    },
  };
}
