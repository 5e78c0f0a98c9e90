// The development dashboard as `run` starts it: the app's bundled server with
// --dashboard-port, in a process of its own.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { appRoot, runtimeDir } from "../runtime/internal/config/app-root.ts";
import { closedPort } from "../runtime/test/closed-port.ts";
import { spawnCommand, whenListening } from "../runtime/test/command.ts";
import { dropServerDatabases, spawnBundle, type RunningApp } from "../runtime/test/process.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}dash_`;
const dataDir = mkdtempSync(path.join(tmpdir(), "dashboard-process-"));
const env = { DATA_DIR: dataDir, DATABASE_NAME_PREFIX: prefix, CRON: "off" };
const running: RunningApp[] = [];

afterAll(async () => {
  await Promise.all(running.map((app) => app.stop("SIGKILL")));
  await dropServerDatabases(prefix);
  rmSync(dataDir, { recursive: true, force: true });
});

async function serve(args: string[]): Promise<RunningApp> {
  const app = await whenListening(spawnBundle(args, env), 60_000);
  running.push(app);
  return app;
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("--dashboard-port serves the dashboard beside the app; a taken port leaves the app serving without it", async () => {
  const port = await closedPort();
  const first = await serve([`--dashboard-port=${port}`]);
  await eventually(() => first.output().includes(`development dashboard at http://localhost:${port}`), "the dashboard's link");
  const dashboard = `http://127.0.0.1:${port}`;
  expect(await (await fetch(`${dashboard}/api/app`)).json()).toMatchObject({ appName: path.basename(process.cwd()) });

  // Through start.ts: the app server was built with the dashboard's secret, so an internal endpoint answers its call.
  const res = await fetch(`${dashboard}/api/call`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ service: "url", endpoint: "topCodes", method: "GET", path: "/internal/top-codes", query: [["limit", "3"]], headers: {}, body: null, auth: { kind: "none" } }),
  });
  expect(await res.json()).toMatchObject({ status: 200, body: '{"totalClicks":0,"top":[]}' });
  expect((await fetch(`${first.url}/internal/top-codes?limit=3`)).status).toBe(404);

  // Bundled into the app, the server still finds the runtime package's front-end folder.
  const dist = path.join(runtimeDir(), "dashboard", "dist");
  const page = await (await fetch(`${dashboard}/`)).text();
  // Either its index.html, which is there, or the page saying it is not built, which names the folder.
  expect(page.includes("front end is not built") ? page.includes(dist) : existsSync(path.join(dist, "index.html"))).toBe(true);

  const second = await serve([`--dashboard-port=${port}`]);
  await eventually(() => second.output().includes(`port ${port} is in use`), "the warning");
  expect(second.output()).toMatch(/development dashboard not started: port \d+ is in use; the app serves without it/);
  expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
  expect(await second.stop("SIGTERM")).toBe(0);

  expect(await first.stop("SIGTERM")).toBe(0);
  await expect(fetch(`${dashboard}/api/app`)).rejects.toThrow();
}, 120_000);

test("a --dashboard-port that is not a port stops start-up, naming the flag", async () => {
  const spawned = spawnBundle(["--dashboard-port=70000"], env);
  expect(await spawned.exited).toBe(1);
  expect(spawned.output()).toContain('--dashboard-port must be an integer from 0 to 65535, got "70000"');
});

test("production never serves the dashboard: start takes no such flag, and the server refuses it under NODE_ENV=production", async () => {
  const port = await closedPort();
  const started = await whenListening(spawnCommand(process.execPath, ["runtime/cli/main.mjs", "start", `--dashboard-port=${port}`], appRoot, { ...process.env, PORT: "0", LOG_LEVEL: "info", ...env }), 60_000);
  running.push(started);
  expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
  expect(started.output()).not.toContain("development dashboard");
  await expect(fetch(`http://127.0.0.1:${port}/api/app`)).rejects.toThrow();
  expect(await started.stop("SIGTERM")).toBe(0);

  const production = spawnBundle([`--dashboard-port=${port}`], { ...env, NODE_ENV: "production" });
  expect(await production.exited).toBe(1);
  expect(production.output()).toContain("the development dashboard is never served in production");
}, 120_000);
