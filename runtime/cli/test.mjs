// encore-selfhost test: vitest as `encore test` runs it, with the app's own vitest (1 to 4).
// Vitest loads the app's own config, when it has one, as usual; this runtime's plugin is
// added to whatever it holds.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { appRoot } from "../internal/config/app-root.mjs";
import { encoreSelfhost } from "../vitest/plugin.mjs";
import { argumentsKeepDefaults, defaultTestFiles, vitestConfigFile } from "./test-files.mjs";

const install = "npm install --save-dev vitest";

/** Runs the app's tests once (`vitest run`), passing `args` through; sets the exit code. */
export async function runTests(args) {
  const config = vitestConfigFile(appRoot);
  const vitest = appVitest();
  // Where the tests are is known without vitest when no config can move them, and when
  // vitest is not installed to read one (a front end's vite.config.ts, in Encore's starters,
  // says nothing about tests): then vitest's default include decides. An app with no test
  // files passes, as under `encore test`, whatever config files it has.
  const tests = config && vitest ? [] : defaultTestFiles(appRoot);
  if ((!config || !vitest) && tests.length === 0 && argumentsKeepDefaults(args)) {
    const unread = config ? `; ${path.relative(appRoot, config)} was not read, vitest not being installed` : "";
    console.log(`No test files found in ${appRoot} (vitest's default include, **/*.{test,spec}.?(c|m)[jt]s?(x), outside node_modules, .git, encore.gen and .data${unread}): nothing to run`);
    return;
  }
  if (!vitest) {
    const why = tests.length > 0 ? `which has test files (${tests.join(", ")})` : `and the arguments given are vitest's (${args.join(" ")})`;
    return refuse(`vitest is not installed in this app, ${why}: ${install}`);
  }
  const { parseCLI, startVitest } = await import(pathToFileURL(vitest.nodeApi).href);
  // The Node API this command uses is complete from vitest 1.3.1 on (parseCLI); 1.6 is the last 1.x.
  if (typeof parseCLI !== "function") return refuse(`vitest ${vitest.version} is too old: encore-selfhost test needs vitest 1.3.1 or later: ${install}@1`);
  const { filter, options } = parseCLI(["vitest", "run", ...args]);
  process.chdir(appRoot);
  // An app without tests yet passes, as under `encore test`; --passWithNoTests=false restores vitest's failure.
  const ctx = await startVitest("test", filter, { root: appRoot, passWithNoTests: true, ...options }, { plugins: [encoreSelfhost()] });
  // Vitest 1 and 2 declare it may be undefined; every version returns it.
  if (ctx && !ctx.shouldKeepServer()) await ctx.exit();
}

/** The app's vitest, as `npx vitest` would find it: its Node API and version; undefined when not installed. */
function appVitest() {
  const require = createRequire(path.join(appRoot, "package.json"));
  let nodeApi;
  try {
    nodeApi = require.resolve("vitest/node");
  } catch {
    return undefined;
  }
  const manifest = JSON.parse(readFileSync(require.resolve("vitest/package.json"), "utf8"));
  return { nodeApi, version: manifest.version };
}

function refuse(message) {
  console.error(`encore-selfhost test: ${message}`);
  process.exitCode = 1;
}
