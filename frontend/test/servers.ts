// The servers a browser test talks to: the real app as `npm start` runs it, and a page
// for short links to point at.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { rmSync } from "node:fs";
import { closedPort } from "../../runtime/test/closed-port.ts";
import { startApp, type RunningApp } from "../../test/support/app-process.ts";
import { tempDataDir } from "../../runtime/vitest/temp-dir.ts";
import { launchBrowser, watchCsp, type Browser } from "./browser.ts";

export interface BrowserApp {
  /** What the browser opens: localhost, the host of PUBLIC_BASE_URL, so short links and QR URLs are same-site. */
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * The app on its own embedded PostgreSQL in a temp folder, with the QR-code extension on; `env`
 * adds to its environment. `prepare`, when given, runs against a first start of the app
 * without `env` (say, to sign up the account ADMIN_EMAILS will name, as an operator does
 * before listing it), stopped before the app starts again with it on the same data.
 */
/** The app's settings, or a function of its own URL that gives them (a setting naming its port). */
export type AppEnv = Record<string, string> | ((url: string) => Record<string, string>);

export async function startAppForBrowser(env: AppEnv = {}, prepare?: (url: string) => Promise<void>): Promise<BrowserApp> {
  const dataDir = tempDataDir("browser-test-");
  // A port nothing listens on now: the app needs to know its own before it starts, for PUBLIC_BASE_URL.
  const port = await closedPort();
  const url = `http://localhost:${port}`;
  const base = { DATA_DIR: dataDir, DATABASE_URL: "", DATABASE_NAME_PREFIX: "", PORT: String(port), PUBLIC_BASE_URL: url, QR_CODES: "on" };
  let app: RunningApp;
  try {
    if (prepare) {
      const first = await startApp(base);
      try {
        await prepare(url);
      } finally {
        await first.stop("SIGTERM");
      }
    }
    app = await startApp({ ...base, ...(typeof env === "function" ? env(url) : env) });
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    async stop() {
      await app.stop("SIGTERM"); // takes its embedded cluster down with it
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TargetServer {
  readonly url: string;
  close(): Promise<void>;
}

/** A page for the short links to lead to, on 127.0.0.1: another host than the app's, as a real target is. */
export async function startTargetServer(): Promise<TargetServer> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<!doctype html><title>Target page</title><h1>You arrived</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/landing?from=browser-test`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What each browser test file runs against: the app, a target page, and a browser whose CSP violations are collected. */
export interface BrowserTestBed {
  readonly app: BrowserApp;
  readonly target: TargetServer;
  readonly browser: Browser;
  readonly cspViolations: string[];
  close(): Promise<void>;
}

export async function startBrowserTestBed(env: AppEnv = {}, prepare?: (url: string) => Promise<void>): Promise<BrowserTestBed> {
  const started = await Promise.allSettled([startAppForBrowser(env, prepare), startTargetServer(), launchBrowser()] as const);
  const [app, target, browser] = started;
  if (app.status === "rejected" || target.status === "rejected" || browser.status === "rejected") {
    // What did start is stopped, so a failed start leaves no process or folder behind.
    await Promise.all([
      app.status === "fulfilled" && app.value.stop(),
      target.status === "fulfilled" && target.value.close(),
      browser.status === "fulfilled" && browser.value.close(),
    ]);
    throw started.find((s) => s.status === "rejected")!.reason;
  }
  const bed: BrowserTestBed = {
    app: app.value,
    target: target.value,
    browser: browser.value,
    cspViolations: await watchCsp(browser.value.page),
    async close() {
      await bed.browser.close();
      await bed.target.close();
      await bed.app.stop();
    },
  };
  return bed;
}
