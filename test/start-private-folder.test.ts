// npm start as root on a clone in a private folder (as /root/app, mode 0700, on a
// server): the embedded PostgreSQL runs as the account "postgres", which cannot enter
// it, so the cluster lives in /var/lib/encore-selfhost; the app serves, the cron
// command finds the same cluster, and the links are there after a restart. Run on a copy of this checkout with the default DATA_DIR.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, rmdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { appRoot } from "../runtime/internal/config/app-root.ts";
import { stopCluster } from "../runtime/internal/sql/embedded/cluster.ts";
import { sharedClusterDir, sharedClustersDir } from "../runtime/internal/sql/embedded/location.ts";
import { copyCheckout } from "./support/checkout-copy.ts";
import { runToEnd, spawnCommand, whenListening, type Serving } from "../runtime/test/command.ts";

const asRoot = process.getuid?.() === 0;
const sharedExisted = existsSync(sharedClustersDir);
const work = mkdtempSync(path.join(tmpdir(), "private-start-test-")); // mode 0700
const app = path.join(work, "app");
const clusterDir = path.join(app, ".data", "postgres");
// DATA_DIR unset: the clone's own .data, as after `npm ci && npm start`.
const env = { ...process.env, PORT: "0", LOG_LEVEL: "info", DATA_DIR: "", DATABASE_URL: "", DATABASE_NAME_PREFIX: "", CRON: "off" };

afterAll(async () => {
  await stopCluster(clusterDir); // only if a test failed midway
  rmSync(path.dirname(sharedClusterDir(clusterDir)), { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
  if (!sharedExisted && existsSync(sharedClustersDir) && readdirSync(sharedClustersDir).length === 0) rmdirSync(sharedClustersDir);
});

function start(): Promise<Serving> {
  return whenListening(spawnCommand(process.execPath, ["runtime/cli/main.mjs", "start"], app, env), 120_000);
}

describe.runIf(asRoot)("npm start as root in a private folder", () => {
  test("serves with its cluster in /var/lib/encore-selfhost, shares it with the cron command, and keeps its links across a restart", async () => {
    copyCheckout(appRoot, app);
    execFileSync("npm", ["run", "--silent", "postinstall"], { cwd: app, stdio: "ignore" }); // what npm ci leaves
    const home = sharedClusterDir(clusterDir);

    const first = await start();
    let code: string;
    try {
      expect(first.output()).toContain(`embedded PostgreSQL cluster in ${home}, not in ${clusterDir}: the account \\"postgres\\" it runs as`);
      expect(first.output()).toContain(`"database":"embedded PostgreSQL in ${home}, databases`);
      const shortened = await fetch(`${first.url}/shorten`, { method: "POST", body: JSON.stringify({ url: "https://example.com/kept" }) });
      expect(shortened.status).toBe(200);
      ({ code } = (await shortened.json()) as { code: string });
    } finally {
      expect(await first.stop("SIGTERM")).toBe(0);
    }
    // Stopped with the app; otherwise its log says which connections kept the server running.
    expect(existsSync(path.join(home, "pgdata", "postmaster.pid")), first.output()).toBe(false);
    expect(existsSync(clusterDir)).toBe(false);

    // The cron command opens the same cluster (starting it, then stopping it again).
    const cron = await runToEnd(process.execPath, ["runtime/cli/main.mjs", "cron", "--list"], app, env);
    expect(cron).toMatchObject({ code: 0, output: expect.stringContaining("cleanup-stale-urls") });
    expect(existsSync(path.join(home, "pgdata", "postmaster.pid"))).toBe(false);
    expect(existsSync(clusterDir)).toBe(false);

    const second = await start();
    try {
      const resolved = await fetch(`${second.url}/${code}`);
      expect(resolved.status).toBe(200);
      expect(await resolved.json()).toEqual({ url: "https://example.com/kept" });
    } finally {
      expect(await second.stop("SIGTERM")).toBe(0);
    }
  }, 240_000);
});
