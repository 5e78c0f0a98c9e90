// `encore-selfhost test` in an app that has no test files yet: as `encore test` and the
// apps' own `vitest run` scripts treat it, that is a success, not a failed run, with vitest
// installed or not. An app with tests and no vitest is told how to install it.
import { cpSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { appRoot, runtimeDir } from "../internal/config/app-root.ts";
import { runToEnd, userEnv } from "../test/command.ts";
import { tempDataDir } from "../vitest/temp-dir.ts";

const work = tempDataDir("test-command-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * A copy of the hello-world fixture app (one test file), under `name` in a temporary folder
 * that has no node_modules above it: with `withTests` false, without its test; with
 * `withPackages`, on this repository's node_modules (vitest 4 among them), else on none.
 */
function helloWorld(name: string, { withTests, withPackages }: { withTests: boolean; withPackages: boolean }): string {
  const app = path.join(work, name);
  cpSync(path.join(runtimeDir(), "testdata", "apps", "hello-world"), app, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|encore\.gen|\.data)$/.test(src) && (withTests || !src.endsWith(".test.ts")),
  });
  if (withPackages) symlinkSync(path.join(appRoot, "node_modules"), path.join(app, "node_modules"));
  return app;
}

function encoreSelfhostTest(app: string) {
  const main = path.join(runtimeDir(), "cli", "main.mjs");
  // DATABASE_URL's server for the run: the app has no database, so nothing is made on it.
  return runToEnd(process.execPath, [main, "test"], app, userEnv({ TEST_DATABASE_URL: process.env.DATABASE_URL! }));
}

test("an app with no test files passes, saying there were none", async () => {
  const { code, output } = await encoreSelfhostTest(helloWorld("no-tests", { withTests: false, withPackages: true }));
  expect(output).toMatch(/No test files found/);
  expect(code).toBe(0);
}, 120_000);

test("an app with no test files and no vitest installed passes all the same", async () => {
  const { code, output } = await encoreSelfhostTest(helloWorld("no-tests-no-vitest", { withTests: false, withPackages: false }));
  expect(output).toMatch(/No test files found in .*no-tests-no-vitest/);
  expect(code).toBe(0);
}, 120_000);

test("with a vitest config, vitest decides where the tests are, and none found passes", async () => {
  const app = helloWorld("no-tests-config", { withTests: false, withPackages: true });
  // An include that, read by vitest alone, finds nothing: not even the default pattern's files.
  writeFileSync(path.join(app, "vitest.config.ts"), 'export default { test: { include: ["checks/**/*.check.ts"] } };\n');
  writeFileSync(path.join(app, "hello", "not-run.test.ts"), 'throw new Error("outside the include, never loaded");\n');
  const { code, output } = await encoreSelfhostTest(app);
  expect(output).toMatch(/No test files found, exiting with code 0/);
  expect(code).toBe(0);
}, 120_000);

// Encore's react-starter: a front end's vite.config.ts at the app's root, vite installed
// for it, no vitest and no tests. The config is not vitest's to read: nothing was found.
test("an app with a front end's vite.config.ts, no test files and no vitest passes, saying none were found", async () => {
  const app = helloWorld("front-end-config-no-vitest", { withTests: false, withPackages: false });
  writeFileSync(path.join(app, "vite.config.ts"), 'import { defineConfig } from "vite";\nexport default defineConfig({ plugins: [] });\n');
  const { code, output } = await encoreSelfhostTest(app);
  expect(output).toMatch(/No test files found in .*front-end-config-no-vitest .*vite\.config\.ts was not read, vitest not being installed/);
  expect(code).toBe(0);
}, 120_000);

test("an app with vitest's own config, no test files and no vitest passes too, saying the config was not read", async () => {
  const app = helloWorld("vitest-config-no-vitest", { withTests: false, withPackages: false });
  writeFileSync(path.join(app, "vitest.config.ts"), 'export default { test: { include: ["checks/**/*.check.ts"] } };\n');
  const { code, output } = await encoreSelfhostTest(app);
  expect(output).toMatch(/No test files found .*vitest\.config\.ts was not read/);
  expect(code).toBe(0);
}, 120_000);

test("an app with a front end's vite.config.ts and test files, but no vitest, is told to install it", async () => {
  const app = helloWorld("front-end-config-tests-no-vitest", { withTests: true, withPackages: false });
  writeFileSync(path.join(app, "vite.config.ts"), "export default {};\n");
  const { code, output } = await encoreSelfhostTest(app);
  expect(output).toContain(`which has test files (${path.join("hello", "hello.test.ts")}): npm install --save-dev vitest`);
  expect(code).toBe(1);
}, 120_000);

test("an app with test files and no vitest is told to install it, and fails", async () => {
  const { code, output } = await encoreSelfhostTest(helloWorld("tests-no-vitest", { withTests: true, withPackages: false }));
  expect(output).toContain(
    `vitest is not installed in this app, which has test files (${path.join("hello", "hello.test.ts")}): npm install --save-dev vitest`,
  );
  expect(code).toBe(1);
}, 120_000);
