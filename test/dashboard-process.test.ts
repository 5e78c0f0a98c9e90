// The development dashboard as `run` starts it: the app's bundled server with
// --dashboard-port and run's secret in its environment, in a process of its own.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { appRoot, runtimeDir } from "../runtime/internal/config/app-root.ts";
import { dashboardSecretVariable, newDashboardSecret } from "../runtime/internal/config/dashboard-secret.ts";
import { accessCookieName } from "../runtime/internal/dashboard/access.ts";
import { closedPort } from "../runtime/test/closed-port.ts";
import { spawnCommand, whenListening } from "../runtime/test/command.ts";
import { dropServerDatabases, spawnBundle, type RunningApp } from "./support/app-process.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}dash_`;
const dataDir = mkdtempSync(path.join(tmpdir(), "dashboard-process-"));
const env = { DATA_DIR: dataDir, DATABASE_NAME_PREFIX: prefix, CRON: "off" };
// What run draws when it starts and hands to every app it starts.
const secret = newDashboardSecret();
const withSecret = { ...env, [dashboardSecretVariable]: secret };
const running: RunningApp[] = [];

afterAll(async () => {
  await Promise.all(running.map((app) => app.stop("SIGKILL")));
  await dropServerDatabases(prefix);
  rmSync(dataDir, { recursive: true, force: true });
});

async function serve(args: string[]): Promise<RunningApp> {
  const app = await whenListening(spawnBundle(args, withSecret), 60_000);
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
  expect(first.output()).not.toContain(secret); // its log lines never hold the secret: run prints the link
  const dashboard = `http://127.0.0.1:${port}`;
  const access = { cookie: `${accessCookieName(port)}=${secret}` };
  expect((await fetch(`${dashboard}/api/app`)).status).toBe(401);
  expect(await (await fetch(`${dashboard}/api/app`, { headers: access })).json()).toMatchObject({ appName: path.basename(process.cwd()) });

  // Through start.ts: the app server was built with the dashboard's secret, so an internal endpoint answers its call.
  const res = await fetch(`${dashboard}/api/call`, {
    method: "POST",
    headers: { "content-type": "application/json", ...access },
    body: JSON.stringify({ service: "url", endpoint: "topCodes", method: "GET", path: "/internal/top-codes", query: [["limit", "3"]], headers: {}, body: null, auth: { kind: "none" } }),
  });
  expect(await res.json()).toMatchObject({ status: 200, body: '{"totalClicks":0,"top":[]}' });
  expect((await fetch(`${first.url}/internal/top-codes?limit=3`)).status).toBe(404);

  // Bundled into the app, the server still finds the runtime package's front-end folder.
  const dist = path.join(runtimeDir(), "dashboard", "dist");
  const page = await (await fetch(`${dashboard}/`, { headers: access })).text();
  // Either its index.html, which is there, or the page saying it is not built, which names the folder.
  expect(page.includes("front end is not built") ? page.includes(dist) : existsSync(path.join(dist, "index.html"))).toBe(true);

  const second = await serve([`--dashboard-port=${port}`]);
  await eventually(() => second.output().includes(`port ${port} is in use`), "the warning");
  expect(second.output()).toMatch(/development dashboard not started: port \d+ is in use; the app serves without it/);
  expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
  expect(await second.stop("SIGTERM")).toBe(0);

  const firstBoot = ((await (await fetch(`${dashboard}/api/app`, { headers: access })).json()) as { bootId: string }).bootId;
  expect(await first.stop("SIGTERM")).toBe(0);
  await expect(fetch(`${dashboard}/api/app`)).rejects.toThrow();

  // As run restarts its app after a change: the next app gets the same secret, so the page's cookie still opens it.
  const restarted = await serve([`--dashboard-port=${port}`]);
  await eventually(() => restarted.output().includes(`development dashboard at http://localhost:${port}`), "the dashboard's link");
  const info = (await (await fetch(`${dashboard}/api/app`, { headers: access })).json()) as { bootId: string };
  expect(info.bootId).not.toBe(firstBoot);
  expect(await restarted.stop("SIGTERM")).toBe(0);
}, 120_000);

test("--dashboard-port without run's secret stops start-up, naming the variable", async () => {
  const spawned = spawnBundle([`--dashboard-port=${await closedPort()}`], env);
  expect(await spawned.exited).toBe(1);
  expect(spawned.output()).toContain(`the development dashboard opens only with the secret encore-selfhost run hands over in ${dashboardSecretVariable}`);
  const short = spawnBundle([`--dashboard-port=${await closedPort()}`], { ...env, [dashboardSecretVariable]: "short" });
  expect(await short.exited).toBe(1);
  expect(short.output()).toContain(`invalid configuration: ${dashboardSecretVariable} must be at least 32 characters`);
});

test("a --dashboard-port that is not a port stops start-up, naming the flag", async () => {
  const spawned = spawnBundle(["--dashboard-port=70000"], withSecret);
  expect(await spawned.exited).toBe(1);
  expect(spawned.output()).toContain('--dashboard-port must be an integer from 0 to 65535, got "70000"');
});

test("production never serves the dashboard: start takes no such flag, and the server refuses it under NODE_ENV=production", async () => {
  // The port asked for is held by the test for the whole start: a port merely found free could be
  // handed to the app's own PORT=0 (it once was, and the app's 404 answered there). Were the flag
  // passed on, the server would try to serve the dashboard there and warn that the port is taken.
  const holder = createServer((_req, res) => res.writeHead(418).end("held by the test"));
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  const port = (holder.address() as AddressInfo).port;
  try {
    const started = await whenListening(spawnCommand(process.execPath, ["runtime/cli/main.mjs", "start", `--dashboard-port=${port}`], appRoot, { ...process.env, PORT: "0", LOG_LEVEL: "info", ...env }), 60_000);
    running.push(started);
    expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
    expect(started.output()).not.toContain("development dashboard");
    expect((await fetch(`http://127.0.0.1:${port}/api/app`)).status).toBe(418);
    expect(await started.stop("SIGTERM")).toBe(0);
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }

  const production = spawnBundle([`--dashboard-port=${port}`], { ...withSecret, NODE_ENV: "production" });
  expect(await production.exited).toBe(1);
  expect(production.output()).toContain("the development dashboard is never served in production");
}, 120_000);
