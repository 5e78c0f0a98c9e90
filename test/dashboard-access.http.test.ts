// Who may use the development dashboard: only who holds the secret `run` printed in its
// link. Everyone else (another local account above all, which can reach loopback too) gets
// 401 from its API, its event stream and a WebSocket upgrade, and a page saying what to do.
import { parseSetCookie } from "cookie";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { WebSocket } from "ws";
import type { CronState, PubSubState } from "../runtime/internal/dashboard/api.ts";
import { accessCookieName } from "../runtime/internal/dashboard/access.ts";
import type { Dashboard } from "../runtime/internal/dashboard/server.ts";
import { appRoot } from "../runtime/internal/config/app-root.ts";
import { startPubSub } from "../runtime/internal/pubsub/mod.ts";
import { createDevCalls } from "../runtime/internal/server/runtime-routes/dev-calls.ts";
import { startTestDashboard } from "../runtime/test/dashboard.ts";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";

let secret: string;
const devCalls = createDevCalls();
const frontEnd = mkdtempSync(path.join(tmpdir(), "dashboard-access-dist-"));
let app: TestServer;
let dashboard: Dashboard;
let base: string;

beforeAll(async () => {
  app = await startTestServer({ devCalls });
  await startPubSub();
  // The front end not built: with access, / says how to build it.
  ({ dashboard, secret, base } = await startTestDashboard(app.url, devCalls, { frontEndDir: frontEnd }));
});
afterAll(async () => {
  await dashboard.close();
  await app.close();
  rmSync(frontEnd, { recursive: true, force: true });
});

const cookieOf = (value: string) => ({ cookie: `${accessCookieName(dashboard.port)}=${value}` });
const post = (route: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${route}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
const withAccess = async <T>(route: string): Promise<T> => (await (await fetch(`${base}${route}`, { headers: cookieOf(secret) })).json()) as T;

/** What the dashboard could do for whoever reaches it: each must be refused without access. */
const powers: readonly [string, () => Promise<Response>][] = [
  ["GET /api/app", () => fetch(`${base}/api/app`)],
  ["GET /api/catalog", () => fetch(`${base}/api/catalog`)],
  ["GET /api/events", () => fetch(`${base}/api/events`)],
  [
    "POST /api/call users.verifyCredentials",
    () => post("/api/call", { service: "users", endpoint: "verifyCredentials", method: "POST", path: "/internal/users/verify-credentials", query: [], headers: {}, body: '{"email":"a@example.com","password":"x"}', auth: { kind: "none" } }),
  ],
  ["POST /api/databases/users/query", () => post("/api/databases/users/query", { sql: "SELECT * FROM users" })],
  ["POST /api/pubsub/publish", () => post("/api/pubsub/publish", { topic: "url-shortened", message: { code: "x", originalUrl: "y", timestamp: "2031-01-01T00:00:00Z" } })],
  ["POST /api/cron/cleanup-stale-urls/run", () => post("/api/cron/cleanup-stale-urls/run", {})],
  ["GET /api/buckets/qr-codes/objects", () => fetch(`${base}/api/buckets/qr-codes/objects`)],
  ["GET /api/caches", () => fetch(`${base}/api/caches`)],
  ["GET /api/caches/main/key", () => fetch(`${base}/api/caches/main/key?key=user/1`)],
];

describe("without the link's cookie", () => {
  test("every API answers 401 unauthenticated in Encore's format, and nothing is done", async () => {
    const pubsubBefore = await withAccess<PubSubState>("/api/pubsub");
    for (const [what, request] of powers) {
      const res = await request();
      expect(res.status, what).toBe(401);
      expect(await res.json(), what).toEqual({ code: "unauthenticated", message: expect.stringContaining("open the link encore-selfhost run printed"), details: null });
    }
    expect(await withAccess<PubSubState>("/api/pubsub")).toEqual(pubsubBefore);
    const { jobs } = await withAccess<CronState>("/api/cron");
    expect(jobs.find((j) => j.name === "cleanup-stale-urls")!.lastRuns).toEqual([]);
  });

  test("a WebSocket upgrade is refused with 401", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${dashboard.port}/api/events`);
      ws.once("unexpected-response", (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.once("open", () => reject(new Error("the upgrade was accepted")));
      ws.once("error", () => {}); // terminate() after an unexpected response reports one
    });
    expect(status).toBe(401);
  });

  test("the page answers 401 with HTML saying to open the link run printed, and no app", async () => {
    for (const route of ["/", "/services/url", "/assets/index.js"]) {
      const res = await fetch(`${base}${route}`);
      expect([route, res.status, res.headers.get("content-type")]).toEqual([route, 401, "text/html; charset=utf-8"]);
      const page = await res.text();
      expect(page).toContain("<h1>Open the link from your terminal</h1>");
      expect(page).toContain(`[run] development dashboard: http://localhost:${dashboard.port}/?token=…`);
      expect(page).not.toContain(secret);
      expect(page).not.toContain("<script");
    }
  });
});

describe("the link", () => {
  test("sets an HttpOnly, SameSite=Strict cookie and redirects to the page without the token; with the cookie the API answers", async () => {
    const res = await fetch(`${base}/?token=${secret}`, { redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    const cookie = parseSetCookie(res.headers.get("set-cookie")!);
    expect(cookie).toEqual({ name: accessCookieName(dashboard.port), value: secret, httpOnly: true, sameSite: "strict", path: "/" });

    const info = await fetch(`${base}/api/app`, { headers: cookieOf(cookie.value!) });
    expect([info.status, ((await info.json()) as { appName: string }).appName]).toEqual([200, path.basename(appRoot)]);
    const page = await fetch(`${base}/`, { headers: cookieOf(cookie.value!) });
    expect([page.status, await page.text()]).toEqual([200, expect.stringContaining("front end is not built")]);
  });

  test("keeps the page and its other parameters, and never redirects to another site", async () => {
    // Request targets exactly as written (fetch would normalize them first).
    const location = (target: string) =>
      new Promise<string | undefined>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port: dashboard.port, path: target }, (res) => {
          res.resume();
          resolve(res.headers.location);
        });
        req.once("error", reject);
        req.end();
      });
    expect(await location(`/traces?service=url&token=${secret}`)).toBe("/traces?service=url");
    expect(await location(`/.//evil.example/?token=${secret}`)).toBe("/evil.example/");
    expect(await location(`//evil.example/?token=${secret}`)).toBe("/");
  });

  test("a wrong token or cookie is refused with 401 and sets no cookie; the token is taken only by a page's link", async () => {
    for (const token of ["wrong", secret.slice(0, -1), `${secret}x`, ""]) {
      const res = await fetch(`${base}/?token=${token}`, { redirect: "manual" });
      expect([token, res.status, res.headers.get("set-cookie")]).toEqual([token, 401, null]);
      expect(await res.text()).toContain("This link is from another run");
      const api = await fetch(`${base}/api/app`, { headers: cookieOf(token) });
      expect([token, api.status, ((await api.json()) as { code: string }).code]).toEqual([token, 401, "unauthenticated"]);
    }
    const cookieOfAnotherPort = { cookie: `${accessCookieName(dashboard.port + 1)}=${secret}` };
    expect((await fetch(`${base}/api/app`, { headers: cookieOfAnotherPort })).status).toBe(401);
    expect((await fetch(`${base}/api/app?token=${secret}`)).status).toBe(401);
  });
});

test("as another local account, the dashboard and its API answer 401", async () => {
  const script = `
    const base = ${JSON.stringify(base)};
    const page = await fetch(base + "/");
    const api = await fetch(base + "/api/catalog");
    console.log(JSON.stringify({ uid: process.getuid(), page: page.status, api: api.status, code: (await api.json()).code }));
  `;
  let answer: { uid: number; page: number; api: number; code: string };
  if (process.getuid?.() === 0) {
    // Tests run as root (here and on CI): run the request as the account nobody, which shares
    // loopback with the developer but not their terminal or browser.
    answer = JSON.parse(await runAs(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", process.execPath, "--input-type=module", "-e", script]));
    expect(answer.uid).not.toBe(0);
  } else {
    // Not root, so no other account to switch to: another account has no more than a
    // request without the cookie (it cannot read the developer's terminal or cookies).
    answer = { uid: process.getuid?.() ?? -1, page: (await fetch(`${base}/`)).status, ...(await apiAnswer()) };
  }
  expect(answer).toMatchObject({ page: 401, api: 401, code: "unauthenticated" });
});

async function apiAnswer(): Promise<{ api: number; code: string }> {
  const res = await fetch(`${base}/api/catalog`);
  return { api: res.status, code: ((await res.json()) as { code: string }).code };
}

/** Runs a command to its end from /, which any account may enter; answers its stdout. */
function runAs(command: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { cwd: "/", env: { PATH: process.env.PATH }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`${command.join(" ")} exited with ${code}: ${err}`))));
  });
}
