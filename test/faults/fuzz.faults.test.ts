// 10,000 generated hostile requests against every exposed endpoint (from the app's own
// OpenAPI document, plus the routes it leaves out): no 5xx, no hang, no file served from
// outside its folder, the process alive and healthy afterwards, and the stored data
// changed only by the requests the app accepted. The seed is printed; FUZZ_SEED=<n>
// replays a run, FUZZ_REQUESTS=<n> changes its size.
import { rmSync } from "node:fs";
import fc from "fast-check";
import { afterAll, expect, test } from "vitest";
import { dropServerDatabases, startApp, type RunningApp } from "../support/app-process.ts";
import { tempDataDir } from "../../runtime/vitest/temp-dir.ts";
import { fuzzRequests, type FuzzRequest, type OpenApi } from "./fuzz-requests.ts";
import { sendHttp, sendRaw, type FuzzAnswer } from "./fuzz-send.ts";
import { rps, send, shortenLimitsOff, summary } from "./load.ts";
import { snapshot, tableChanges, type Snapshot } from "./snapshot.ts";

const seed = Number(process.env.FUZZ_SEED?.trim() || 20_261_117);
const requests = Number(process.env.FUZZ_REQUESTS?.trim() || 10_000);
const concurrency = 8;
/** Longest one request may take: a 3 MiB body on a loaded machine. Longer is a hang. */
const requestLimitMs = 15_000;

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}fuzz_`;
const dataDir = tempDataDir("fuzz-");
afterAll(async () => {
  await dropServerDatabases(prefix);
  rmSync(dataDir, { recursive: true, force: true });
});

interface Seeded {
  codes: string[];
  ids: string[];
  token: string;
}

async function json<T>(app: RunningApp, route: string, body: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const { status, body: text } = await send(app, route, { method: "POST", body: JSON.stringify(body), headers });
  if (status !== 200) throw new Error(`seeding ${route} answered ${status}: ${text}`);
  return JSON.parse(text!) as T;
}

/** Things that exist, so that generated requests reach past "not found": links, a user and a token, an order. */
async function seedData(app: RunningApp): Promise<Seeded> {
  const codes: string[] = [];
  for (let i = 0; i < 5; i++) codes.push((await json<{ code: string }>(app, "/shorten", { url: `https://example.com/fuzz/${i}` })).code);
  const { id: urlbId } = await json<{ id: string }>(app, "/url", { url: "https://example.com/fuzz-b" });
  const owner = await json<{ id: string }>(app, "/users", { email: "owner@example.com", name: "Owner", age: 30, password: "correct horse battery" });
  const other = await json<{ id: string }>(app, "/users", { email: "other@example.com", name: "Other", age: 40, password: "correct horse battery" });
  const { token } = await json<{ token: string }>(app, "/auth/login", { email: "owner@example.com", password: "correct horse battery" });
  const order = await json<{ id: string }>(app, "/orders", { customerId: owner.id, total: 12.5 }, token);
  // The owner's own id is left out of the pool: PUT and DELETE with the owner's token would
  // change the account the token belongs to; the other's id is refused (403) instead.
  return { codes, ids: [other.id, urlbId, order.id, "1", "2", "3"], token: `Bearer ${token}` };
}

/** The method and the path (without its query) a request asked for; a raw one's from its request line, absolute form included. */
function requestLine(req: FuzzRequest): { method: string; route: string } {
  if (!req.raw) return { method: req.method, route: req.path.split("?")[0]! };
  const [, method = "", target = ""] = /^(\S+) (\S+)/.exec(req.raw.toString("latin1")) ?? [];
  const route = target.startsWith("http") ? URL.canParse(target) ? new URL(target).pathname : target : target.split("?")[0]!;
  return { method, route };
}

/** What an accepted request may change, by table: rows added, and links clicked. */
function accepted(sent: readonly { req: FuzzRequest; answer: FuzzAnswer }[], codes: readonly string[]) {
  const added: Record<string, string[]> = { "url.urls": [], "urlb.url": [], "users.users": [], "orders.orders": [], "orders.order_items": [], "orders.products": [] };
  const clicks = new Map<string, number>();
  /** Lookups whose answer was never read (a raw request the server hung up on): they may have counted a click. */
  const unread = new Map<string, number>();
  for (const { req, answer } of sent) {
    const { method, route } = requestLine(req);
    const click = (method === "GET" || method === "POST") && codes.includes(route.slice(1));
    if (typeof answer.status !== "number" && click) unread.set(route.slice(1), (unread.get(route.slice(1)) ?? 0) + 1);
    if (typeof answer.status !== "number" || answer.status >= 400) continue;
    // The answer's body is kept only in part (a long URL is echoed back): its first field is enough.
    const field = (name: string) => new RegExp(`"${name}":"?([^",}]+)`).exec(answer.body)?.[1] ?? `unreadable answer ${answer.body.slice(0, 80)}`;
    if (method === "POST" && route === "/shorten") added["url.urls"]!.push(field("code"));
    else if (method === "POST" && route === "/url") added["urlb.url"]!.push(field("id"));
    else if (method === "POST" && route === "/users") added["users.users"]!.push(field("id"));
    else if (method === "POST" && route === "/orders") added["orders.orders"]!.push(field("id"));
    // A lookup counts a click whether it answers the URL (200) or redirects a browser to it
    // (302), and so does a form posted to a link (POST /:code, the password page's), which a
    // link without a password redirects at once (303).
    else if (click) clicks.set(route.slice(1), (clicks.get(route.slice(1)) ?? 0) + 1);
  }
  return { added, clicks, unread };
}

/** A file from outside the served folders: the repository's package.json, or the system's passwd. */
const leakedFile = /"devDependencies"|root:x:0:0/;

/**
 * Bodies this large may be refused before they are read: over the 2 MiB limit (413), or on a
 * method or path no route takes (404), and Node's server then hangs up rather than read
 * megabytes it will throw away. The client, still sending, sees EPIPE or a reset before it
 * reads the answer. That is a refusal, not a failure to answer.
 */
const earlyRefusalBytes = 64 * 2 ** 10;

/** A large body whose sending the server cut short: refused, though the client may not read the answer in time. */
const cutOff = (answer: FuzzAnswer) =>
  answer.status === "no answer" && (answer.bodyBytes ?? 0) > earlyRefusalBytes && /EPIPE|ECONNRESET|socket hang up/.test(answer.error ?? "");

/**
 * /healthz reports readiness: 503 when a database does not answer SELECT 1 within a second,
 * which a saturated pool on a loaded machine may not. That is the check working, not a
 * failure to handle input.
 */
const notReady = (req: FuzzRequest, answer: FuzzAnswer) => answer.status === 503 && /^\/(__encore\/)?healthz/.test(req.path);

function isFailure(req: FuzzRequest, answer: FuzzAnswer): string | undefined {
  if (notReady(req, answer)) return undefined;
  if (typeof answer.status === "number" && answer.status >= 500) return `answered ${answer.status}`;
  if (cutOff(answer)) return undefined;
  if (answer.status === "no answer") return `no answer (${answer.error})`;
  if (answer.status === "closed" && !req.raw && !answer.error?.startsWith("not sent")) return `closed without an answer (${answer.error ?? "hung up"})`;
  if (answer.status === 200 && leakedFile.test(answer.body)) return "served a file from outside its folder";
  return undefined;
}

function describe(req: FuzzRequest, answer: FuzzAnswer, why: string): string {
  const body = req.raw ?? req.body?.();
  const shown = body ? (body.length > 300 ? `${body.subarray(0, 300).toString("latin1")}… (${body.length} bytes)` : body.toString("latin1")) : "";
  return `${why}: ${req.method} ${req.path.slice(0, 300)} ${JSON.stringify(req.headers)} ${JSON.stringify(shown)} → ${answer.body.slice(0, 300)}`;
}

test(`${requests} generated hostile requests: no 5xx, the app alive, stored data changed only by accepted requests (seed ${seed})`, async () => {
  console.log(`[faults] fuzz seed ${seed} (FUZZ_SEED=${seed} replays this run)`);
  const app = await startApp({ DATA_DIR: dataDir, DATABASE_NAME_PREFIX: prefix, SERVE_OPENAPI: "on", QR_CODES: "on", ...shortenLimitsOff });
  let exited = false;
  app.child.once("exit", () => (exited = true));
  const doc = JSON.parse((await send(app, "/openapi.json")).body!) as OpenApi;
  expect(Object.keys(doc.paths).length).toBeGreaterThan(10);
  // Signing out everywhere would end the token the requests are made with, and change its account's row.
  expect(doc.paths["/me/sessions"]?.["delete"]).toBeDefined();
  delete doc.paths["/me/sessions"]!["delete"];
  const seeded = await seedData(app);

  const serverUrl = process.env.DATABASE_URL!;
  const before: Snapshot = await snapshot(serverUrl, prefix);
  // Nor may any other generator send it: requests of any method go to the documented paths,
  // and a DELETE /me/sessions whose large body the server cut off goes unread, yet acts.
  const signsOutEverywhere = (req: FuzzRequest) => {
    const { method, route } = requestLine(req);
    return method === "DELETE" && /^\/me\/sessions\/*$/.test(route);
  };
  const generated = fc.sample(
    fuzzRequests(doc, { codes: seeded.codes, ids: seeded.ids, tokens: [seeded.token] }).filter((req) => !signsOutEverywhere(req)),
    { seed, numRuns: requests },
  );

  const base = new URL(app.url);
  const sent: { req: FuzzRequest; answer: FuzzAnswer }[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < generated.length) {
        const req = generated[next++]!;
        const answer = req.raw ? await sendRaw(base, req.raw, requestLimitMs) : await sendHttp(base, req, requestLimitMs);
        sent.push({ req, answer });
      }
    }),
  );
  const sendMs = performance.now() - started;

  const failures = sent.flatMap(({ req, answer }) => {
    const why = isFailure(req, answer);
    return why ? [describe(req, answer, why)] : [];
  });
  const health = await send(app, "/healthz");
  expect(exited).toBe(false);
  expect(health.status).toBe(200);
  // A clean stop writes the clicks the app holds, so the tables show everything accepted.
  expect(await app.stop()).toBe(0);
  const after = await snapshot(serverUrl, prefix);

  const byStatus: Record<string, number> = {};
  for (const { req, answer } of sent) {
    const key = notReady(req, answer)
      ? "healthz 503 (not ready)"
      : typeof answer.status === "number"
        ? `${Math.floor(answer.status / 100)}xx`
        : cutOff(answer)
          ? "large body refused early, cut off"
          : answer.status;
    byStatus[key] = (byStatus[key] ?? 0) + 1;
  }
  const targets = new Set(sent.map((s) => s.req.target));
  const timeByTarget = new Map<string, number>();
  for (const { req, answer } of sent) timeByTarget.set(req.target, (timeByTarget.get(req.target) ?? 0) + (answer.ms ?? 0));
  const slowest = [...timeByTarget].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([t, ms]) => `${t} ${Math.round(ms / 1000)} s`).join(", ");
  summary("fuzz", {
    "bad inputs tried": `${sent.length} requests over ${targets.size} routes and kinds (seed ${seed})`,
    "load held": `${rps(sent.length, sendMs)} rps, ${concurrency} at a time`,
    answers: JSON.stringify(byStatus),
    "5xx or no answer": failures.length,
    "most time spent on": slowest,
  });

  expect(failures.slice(0, 20)).toEqual([]);
  const { added, clicks, unread } = accepted(sent, seeded.codes);
  expect(tableChanges(before, after)).toEqual(
    Object.fromEntries(
      Object.entries(added).map(([table, keys]) => [
        table,
        {
          added: [...new Set(keys)].sort(),
          removed: [],
          changed: table === "url.urls" ? [...clicks.keys()].sort() : [],
        },
      ]),
    ),
  );
  // Each answered click counted once: the clicked links' counts grew by their 200s, 302s and 303s,
  // and by no more than the lookups whose answer was not read besides.
  for (const code of seeded.codes) {
    const clicksOf = (s: Snapshot) => s["url.urls"]!.get(code)!.clicks as number;
    const grew = clicksOf(after) - clicksOf(before);
    const answered = clicks.get(code) ?? 0;
    expect(grew, `clicks counted for ${code}`).toBeGreaterThanOrEqual(answered);
    expect(grew, `clicks counted for ${code}`).toBeLessThanOrEqual(answered + (unread.get(code) ?? 0));
  }
}, 280_000);
