// `encore-selfhost test` in an app that has no test files yet: as `encore test` and the
// apps' own `vitest run` scripts treat it, that is a success, not a failed run.
import { cpSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { appRoot, runtimeDir } from "../internal/config/app-root.ts";
import { runToEnd, userEnv } from "../test/command.ts";
import { tempDataDir } from "../vitest/temp-dir.ts";

const work = tempDataDir("test-command-");
const app = path.join(work, "no-tests");

beforeAll(() => {
  // The hello-world fixture app without its one test file, on this repository's node_modules.
  cpSync(path.join(runtimeDir(), "testdata", "apps", "hello-world"), app, {
    recursive: true,
    filter: (src) => !/[/\\](node_modules|encore\.gen|\.data)$/.test(src) && !src.endsWith(".test.ts"),
  });
  symlinkSync(path.join(appRoot, "node_modules"), path.join(app, "node_modules"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

test("an app with no test files passes, saying there were none", async () => {
  const main = path.join(runtimeDir(), "cli", "main.mjs");
  // DATABASE_URL's server for the run: the app has no database, so nothing is made on it.
  const { code, output } = await runToEnd(process.execPath, [main, "test"], app, userEnv({ TEST_DATABASE_URL: process.env.DATABASE_URL! }));
  expect(output).toMatch(/No test files found/);
  expect(code).toBe(0);
}, 120_000);
