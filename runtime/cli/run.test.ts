// `encore-selfhost run` as a developer starts it, on a copy of the hello-world fixture app
// whose node_modules is this repository's: the app listens on loopback only, the link run
// prints is the dashboard's one way in, in no one else's sight, and a page opened with it
// keeps working while run restarts the app after a change.
import { cpSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { appRoot, runtimeDir } from "../internal/config/app-root.ts";
import { accessCookieName } from "../internal/dashboard/access.ts";
import { closedPort } from "../test/closed-port.ts";
import { spawnCommand, userEnv, whenListening, whenLogged, type Spawned } from "../test/command.ts";
import { tempDataDir } from "../vitest/temp-dir.ts";

const work = tempDataDir("run-");
const app = path.join(work, "hello-world");
const source = path.join(app, "hello", "hello.ts");
const linkPattern = /\[run\] development dashboard: (http:\/\/localhost:\d+\/\?token=[A-Za-z0-9_-]+)/;

beforeAll(() => {
  cpSync(path.join(runtimeDir(), "testdata", "apps", "hello-world"), app, { recursive: true, filter: (src) => !/[/\\](node_modules|encore\.gen|\.data)$/.test(src) });
  symlinkSync(path.join(appRoot, "node_modules"), path.join(app, "node_modules"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * `run` in the copy; DATABASE_URL, so that it starts no embedded cluster (the app has no database).
 * `group`: in a process group of its own, which `stop` signals whole, as Ctrl-C on a terminal does.
 */
function startRun(args: readonly string[], env: Record<string, string> = {}, group = false): Spawned {
  const main = path.join(runtimeDir(), "cli", "main.mjs");
  return spawnCommand(process.execPath, [main, "run", ...args], app, userEnv({ DATABASE_URL: process.env.DATABASE_URL!, LOG_LEVEL: "info", ...env }), group);
}

/** An address of this machine other than loopback, which another machine on its network could reach. */
function nonLoopbackAddress(): string | undefined {
  const addresses = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
  return addresses.find((a) => !a.internal && a.family === "IPv4")?.address ?? addresses.find((a) => !a.internal && a.family === "IPv6" && a.scopeid === 0)?.address;
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 5000 });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
  });
}

const external = nonLoopbackAddress();

describe("run with its defaults", () => {
  let run: Spawned;
  let appPort = 0;
  let dashboardPort = 0;
  let link = "";
  let token = "";

  beforeAll(async () => {
    [appPort, dashboardPort] = [await closedPort(), await closedPort()];
    run = startRun([`--dashboard-port=${dashboardPort}`], { PORT: String(appPort) });
    await whenListening(run, 120_000);
    link = await whenLogged(run, linkPattern, "printing the dashboard's link", 30_000);
    token = new URL(link).searchParams.get("token")!;
  }, 180_000);
  afterAll(async () => {
    await run?.stop("SIGTERM");
  }, 60_000);

  test(`the app answers on loopback, and not on ${external ?? "a non-loopback address (this machine has none: only loopback was checked)"}`, async () => {
    expect((await fetch(`http://127.0.0.1:${appPort}/hello/dev`)).status).toBe(200);
    if (external !== undefined) expect(await accepts(external, appPort)).toBe(false);
  });

  test("the link run printed opens the dashboard; it is printed once, and in no process's arguments", async () => {
    expect(link).toBe(`http://localhost:${dashboardPort}/?token=${token}`);
    expect((await fetch(`http://127.0.0.1:${dashboardPort}/api/app`)).status).toBe(401);
    const opened = await fetch(link, { redirect: "manual" });
    expect([opened.status, opened.headers.get("location")]).toEqual([303, "/"]);
    const cookie = opened.headers.get("set-cookie")!.split(";")[0]!;
    expect(cookie).toBe(`${accessCookieName(dashboardPort)}=${token}`);
    expect((await fetch(`http://127.0.0.1:${dashboardPort}/api/app`, { headers: { cookie } })).status).toBe(200);

    // The app's own log lines name the dashboard without the secret; only run's line has it.
    expect(run.output().split(token).length - 1).toBe(1);
    expect(run.output()).toContain(`development dashboard at http://localhost:${dashboardPort}"`);
    // `ps` shows every account each process's arguments.
    for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
      let cmdline = "";
      try {
        cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      } catch {
        continue; // gone meanwhile
      }
      expect(cmdline, `process ${pid}`).not.toContain(token);
    }
  });

  test("a page opened with the link keeps working after run restarts the app on a change", async () => {
    const cookie = `${accessCookieName(dashboardPort)}=${token}`;
    const info = async () => (await (await fetch(`http://127.0.0.1:${dashboardPort}/api/app`, { headers: { cookie } })).json()) as { bootId: string };
    const before = (await info()).bootId;
    writeFileSync(source, readFileSync(source, "utf8").replace("Hello ${name}!", "Howdy ${name}!"));
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${appPort}/hello/dev`).then((r) => r.text(), () => "")), { timeout: 60_000, interval: 200 }).toContain("Howdy dev!");
    expect(run.output()).toMatch(/hello\/hello\.ts changed: restarting/);
    await expect.poll(() => info().then((i) => i.bootId, () => before), { timeout: 30_000, interval: 200 }).not.toBe(before);
    expect(run.output().split(token).length - 1).toBe(1); // the same link: not printed again
  }, 90_000);
});

// Only where the machine has a non-loopback address to reach the app on (this one and CI's have one).
test.runIf(external !== undefined)(`with HOST=0.0.0.0, run's app answers on ${external} too (and --no-dashboard prints no link)`, async () => {
  const appPort = await closedPort();
  const run = startRun(["--no-dashboard"], { PORT: String(appPort), HOST: "0.0.0.0" });
  try {
    await whenListening(run, 120_000);
    expect(await accepts(external!, appPort)).toBe(true);
    expect(run.output()).not.toMatch(/development dashboard/);
  } finally {
    await run.stop("SIGTERM");
  }
}, 180_000);

test("Ctrl-C twice while the app is still stopping: run and its app each finish their stop, exit 0", async () => {
  // SHUTDOWN_DELAY_MS: the app goes on serving for 3 s after the first signal, so the second
  // Ctrl-C comes while it stops; run meanwhile passes SIGTERM on to it, another signal again.
  const run = startRun(["--no-dashboard"], { PORT: String(await closedPort()), SHUTDOWN_DELAY_MS: "3000" }, true);
  await whenListening(run, 120_000);
  process.kill(-run.child.pid!, "SIGINT");
  await whenLogged(run, /"msg":"(shutting down)"/, "shutting down", 30_000);
  expect(await run.stop("SIGINT"), run.output()).toBe(0);
  expect(run.output()).toContain("[run] already stopping: waiting for the app to finish its stop");
  expect(run.output()).toContain('"msg":"already stopping; the signal changes nothing"');
  expect(run.output()).toMatch(/"msg":"stopped"/);
}, 180_000);
