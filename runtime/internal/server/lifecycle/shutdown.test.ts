// SIGTERM with the app's own pools open on the embedded cluster: a real process, a
// real signal. The runtime closes its databases, lets the app's queries in progress
// finish within the grace period, ends the rest, stops the cluster and exits 0.
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { appRoot } from "../../config/app-root.ts";
import { stopCluster } from "../../sql/embedded/cluster.ts";
import { tempDataDir } from "../../../vitest/temp-dir.ts";

const dataDir = tempDataDir("shutdown-test-");
afterAll(async () => {
  await stopCluster(path.join(dataDir, "postgres")); // only if the test failed midway
  rmSync(dataDir, { recursive: true, force: true });
});

test("SIGTERM with the app's own knex and pg pools open, one mid-query, exits 0 in bounded time with the cluster stopped", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", "runtime/test/own-pools-process.ts"], {
    cwd: appRoot,
    // The embedded cluster is this test's own: no server, and no name prefix from the test run.
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", DATABASE_NAME_PREFIX: "", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", () => output.includes("ready\n") && resolve());
    void exited.then((code) => reject(new Error(`exited with ${code} before ready:\n${output}`)));
  });

  const signalled = Date.now();
  child.kill("SIGTERM");
  const code = await exited;
  const took = Date.now() - signalled;

  expect(output).toContain("short query finished"); // within the grace period
  expect(output).toContain("an error the app left unhandled while stopping"); // the long one, ended
  expect(output).not.toMatch(/shutdown failed|shutdown took longer|Unhandled|uncaught|\n\s+at /);
  expect(code).toBe(0);
  expect(took).toBeLessThan(8_000);
  expect(existsSync(path.join(dataDir, "postgres/pgdata/postmaster.pid"))).toBe(false);
}, 90_000);
