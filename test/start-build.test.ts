// npm start's build step, on a copy of this checkout (so its sources can change): built
// once, skipped while nothing changes, rebuilt after a change, and a broken app stops
// start-up with the parser's message and no database server left running.
import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { appRoot } from "../runtime/internal/config/app-root.ts";
import { stopCluster } from "../runtime/internal/sql/embedded/cluster.ts";
import { copyCheckout } from "./support/checkout-copy.ts";
import { tempDataDir } from "../runtime/vitest/temp-dir.ts";

const work = tempDataDir("start-build-test-");
const app = path.join(work, "app");
const dataDir = path.join(work, "data");
const clusterDir = path.join(dataDir, "postgres");
copyCheckout(appRoot, app);
// What npm ci's postinstall leaves in a fresh clone: an empty frontend/dist, the web
// service's static folder, which the parser (like Encore's) requires to exist.
execFileSync("npm", ["run", "--silent", "postinstall"], { cwd: app, stdio: "ignore" });

afterAll(async () => {
  await stopCluster(clusterDir); // only if a test failed midway
  rmSync(work, { recursive: true, force: true });
});

interface Outcome {
  readonly exitCode: number | null;
  readonly output: string;
}

/** `npm start` in the copy: waits until it listens, then stops it with SIGTERM; or until it exits by itself. */
function startAndStop(): Promise<Outcome> {
  const env = { ...process.env, PORT: "0", LOG_LEVEL: "info", DATA_DIR: dataDir, DATABASE_URL: "", DATABASE_NAME_PREFIX: "", CRON: "off" };
  const child = spawn(process.execPath, ["runtime/cli/main.mjs", "start"], { cwd: app, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let stopping = false;
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    if (stopping || !/listening on/.test(output)) return;
    stopping = true; // once: a second signal ends the app at once, as a second Ctrl-C does
    child.kill("SIGTERM");
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  return new Promise((resolve) => child.once("close", (exitCode) => resolve({ exitCode, output })));
}

const builds = () => readdirSync(path.join(app, "encore.gen", "build"));
const modified = (file: string) => statSync(path.join(app, file)).mtimeMs;

describe("npm start's build", () => {
  test("runs on the first start, with the database cluster made meanwhile", async () => {
    expect(existsSync(path.join(app, "encore.gen"))).toBe(false);
    const first = await startAndStop();
    expect(first.exitCode).toBe(0);
    expect(first.output).toMatch(/embedded PostgreSQL started/);
    expect(builds()).toHaveLength(1);
    expect(existsSync(path.join(app, "encore.gen", "build", builds()[0]!, "server.mjs"))).toBe(true);
    expect(existsSync(path.join(clusterDir, "pgdata", "PG_VERSION"))).toBe(true);
  }, 120_000);

  test("is skipped while nothing changes", async () => {
    const [bundle] = builds();
    const metaWritten = modified("encore.gen/internal/meta.json");
    const bundleWritten = modified(`encore.gen/build/${bundle}/server.mjs`);
    expect((await startAndStop()).exitCode).toBe(0);
    expect(builds()).toEqual([bundle]);
    expect(modified("encore.gen/internal/meta.json")).toBe(metaWritten);
    expect(modified(`encore.gen/build/${bundle}/server.mjs`)).toBe(bundleWritten);
  }, 120_000);

  test("runs again after a source changes, and the earlier bundle goes", async () => {
    const [before] = builds();
    appendFileSync(path.join(app, "urlb", "url.ts"), "\n// changed\n");
    expect((await startAndStop()).exitCode).toBe(0);
    expect(builds()).toHaveLength(1);
    expect(builds()[0]).not.toBe(before);
  }, 120_000);

  test("a broken app stops start-up with the parser's message, and leaves no server running", async () => {
    appendFileSync(path.join(app, "urlb", "url.ts"), '\nexport const broken = api({ method: "GET", path: "/url/:id" }, async () => {});\n');
    const outcome = await startAndStop();
    expect(outcome.exitCode).toBe(1);
    expect(outcome.output).toMatch(/build failed: urlb\/url\.ts:\d+/);
    expect(outcome.output).not.toMatch(/listening on/);
    expect(existsSync(path.join(clusterDir, "pgdata", "postmaster.pid"))).toBe(false);
  }, 120_000);
});
