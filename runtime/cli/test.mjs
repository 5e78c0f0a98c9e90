// encore-selfhost test: vitest as `encore test` runs it. Vitest loads the app's own
// config, when it has one, as usual; this runtime's plugin is added to whatever it holds.
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { appRoot } from "../internal/config/app-root.mjs";
import { encoreSelfhost } from "../vitest/plugin.mjs";

/** Runs the app's tests once (`vitest run`), passing `args` through; sets the exit code. */
export async function runTests(args) {
  const { parseCLI, startVitest } = await import(pathToFileURL(vitestNodeApi()).href);
  const { filter, options } = parseCLI(["vitest", "run", ...args]);
  process.chdir(appRoot);
  // An app without tests yet passes, as under `encore test`; --passWithNoTests=false restores vitest's failure.
  const vitest = await startVitest("test", filter, { root: appRoot, passWithNoTests: true, ...options }, { plugins: [encoreSelfhost()] });
  if (!vitest.shouldKeepServer()) await vitest.exit();
}

/** The app's vitest, as `npx vitest` would find it; this runtime's own when the app has none. */
function vitestNodeApi() {
  for (const from of [appRoot, import.meta.dirname]) {
    try {
      return createRequire(path.join(from, "package.json")).resolve("vitest/node");
    } catch {
      // not installed there: try the next place
    }
  }
  throw new Error("vitest is not installed: npm install --save-dev vitest");
}
