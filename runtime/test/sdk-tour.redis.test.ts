// The SDK tour (runtime/testdata/apps/sdk-tour: every cache keyspace type, Decimal amounts,
// cookie parameters, an ordered topic) answers one scripted session the same way on what a new
// user has (the embedded PostgreSQL, the in-process cache, pub/sub on PostgreSQL) and on what a
// deployment has (REDIS_URL, NATS_URL, a PostgreSQL server), and passes its own tests on both.
// In the redis project: it needs TEST_REDIS_URL, and TEST_NATS_URL beside it, as CI's server run sets them.
import { cpSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { connect } from "nats";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { appRoot, runtimeDir } from "../internal/config/app-root.ts";
import { deleteNatsStreams } from "../internal/pubsub/nats-provider.ts";
import { natsPrefix } from "../internal/pubsub/mod.ts";
import { runToEnd, startServing, userEnv } from "./command.ts";
import { dropDatabasesWithPrefix } from "./databases.ts";
import { tempDataDir } from "../vitest/temp-dir.ts";

const redisUrl = process.env.REDIS_URL!;
const natsUrl = process.env.TEST_NATS_URL?.trim();
if (!natsUrl) throw new Error("the SDK tour compares the defaults with Redis, NATS and a PostgreSQL server: set TEST_NATS_URL beside TEST_REDIS_URL");
// The test run's PostgreSQL server (TEST_DATABASE_URL's, or the run's embedded one), as the app's server.
const databaseUrl = process.env.DATABASE_URL!;
// Databases, NATS streams and cache keys of the servers' run all carry it.
const prefix = `tour_${process.pid}_`;

const work = tempDataDir("sdk-tour-");
const app = path.join(work, "sdk-tour");
const main = path.join(runtimeDir(), "cli", "main.mjs");

const defaults = () => userEnv({ PORT: "0", DATA_DIR: path.join(work, "data") });
const servers = () => userEnv({ PORT: "0", DATABASE_URL: databaseUrl, DATABASE_NAME_PREFIX: prefix, REDIS_URL: redisUrl, NATS_URL: natsUrl! });

beforeAll(() => {
  cpSync(path.join(runtimeDir(), "testdata", "apps", "sdk-tour"), app, { recursive: true, filter: (src) => !/[/\\](node_modules|encore\.gen|\.data)$/.test(src) });
  symlinkSync(path.join(appRoot, "node_modules"), path.join(app, "node_modules"));
});

afterAll(async () => {
  await dropDatabasesWithPrefix(databaseUrl, prefix);
  await deleteNatsStreams(natsUrl, natsPrefix(prefix));
  const keys = await redisKeys();
  if (keys.length > 0) {
    const redis = new Redis(redisUrl, { lazyConnect: true });
    await redis.del(...keys).finally(() => redis.disconnect());
  }
  rmSync(work, { recursive: true, force: true });
}, 60_000);

interface Step {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly cookie?: string;
  /** Asked again, for up to 20 s, until the body has this text: the ordered topic's effect. */
  readonly until?: string;
}

/** What a step answered: its status, its body as JSON, and the cookies it set. */
interface Answer {
  readonly step: string;
  readonly status: number;
  readonly body: unknown;
  readonly setCookie: string[];
}

const product = { sku: "tea", region: "eu", name: "Green tea", price: "19.99", tags: ["leaf", "hot"], sizes: [250, 100] };
const accounts = ["alice", "bob", "carol"];

const session: readonly Step[] = [
  { method: "POST", path: "/products", body: product },
  { method: "POST", path: "/products", body: product },
  { method: "GET", path: "/products/tea/eu?visitor=v1" },
  { method: "PUT", path: "/products/tea/eu/price", body: { price: "17.5" } },
  { method: "GET", path: "/products/tea/eu" },
  { method: "POST", path: "/products/tea/rate", body: { stars: 4.5 } },
  { method: "GET", path: "/visitors/v1/recent" },
  { method: "GET", path: "/products/nope/eu" },
  { method: "POST", path: "/products", body: { ...product, sku: "mug", price: 12.5 } },
  { method: "GET", path: "/prefs" },
  { method: "GET", path: "/prefs", cookie: "theme=dark; visits=3" },
  { method: "POST", path: "/prefs/theme", body: { theme: "dark" }, cookie: "visits=3" },
  { method: "GET", path: "/prefs", cookie: "visits=many" },
  ...[1, 2, 3, 4, 5].flatMap((seq) => accounts.map((account) => ({ method: "POST", path: "/ledger/entries", body: { account, seq, amount: "0.1" } }))),
  ...accounts.map((account) => ({ method: "GET", path: `/ledger/accounts/${account}`, until: '"applied":5' })),
  { method: "POST", path: "/ledger/entries", body: { account: "alice", seq: 6, amount: "ten" } },
];

async function play(url: string): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const step of session) {
    const deadline = Date.now() + (step.until ? 20_000 : 0);
    for (;;) {
      const res = await fetch(url + step.path, {
        method: step.method,
        headers: { ...(step.body !== undefined && { "content-type": "application/json" }), ...(step.cookie && { cookie: step.cookie }) },
        body: step.body === undefined ? undefined : JSON.stringify(step.body),
      });
      const text = await res.text();
      if (!step.until || text.includes(step.until) || Date.now() > deadline) {
        // A published message's id differs from run to run; that there is one is what counts.
        const body = JSON.parse(text.replace(/"messageId":"[^"]+"/, '"messageId":"<id>"')) as unknown;
        answers.push({ step: `${step.method} ${step.path}`, status: res.status, body, setCookie: res.headers.getSetCookie() });
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return answers;
}

async function redisKeys(): Promise<string[]> {
  const redis = new Redis(redisUrl, { lazyConnect: true });
  try {
    return await redis.keys(`${prefix}*`);
  } finally {
    redis.disconnect();
  }
}

async function natsStreams(): Promise<string[]> {
  const nc = await connect({ servers: natsUrl!.split(",") });
  try {
    const names: string[] = [];
    for await (const info of (await nc.jetstreamManager()).streams.list()) names.push(info.config.name);
    return names;
  } finally {
    await nc.close();
  }
}

async function serverDatabases(): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ datname: string }>("SELECT datname FROM pg_database")).rows.map((r) => r.datname);
  } finally {
    await client.end();
  }
}

async function sessionOn(env: NodeJS.ProcessEnv): Promise<Answer[]> {
  const server = await startServing(process.execPath, [main, "start"], app, env);
  try {
    return await play(server.url);
  } finally {
    expect(await server.stop(), server.output()).toBe(0);
  }
}

describe("the SDK tour", () => {
  let onDefaults: Answer[] = [];

  test("answers the session on the defaults: cache, Decimal, cookies and the ordered topic each as Encore's", async () => {
    onDefaults = await sessionOn(defaults());
    const at = (step: string, nth = 0) => onDefaults.filter((a) => a.step === step)[nth]!;
    expect(at("POST /products")).toMatchObject({ status: 200, body: { sku: "tea" } });
    expect(at("POST /products", 1)).toMatchObject({ status: 409, body: { code: "already_exists" } });
    expect(at("GET /products/tea/eu?visitor=v1").body).toMatchObject({ price: "19.99", priceWithTax: "24.9875", tags: ["hot", "leaf"], sizes: [100, 250], views: 1 });
    expect(at("GET /products/tea/eu").body).toMatchObject({ price: "17.5", priceWithTax: "21.875", views: 2, priceHistory: [19.99, 17.5] });
    expect(at("POST /products/tea/rate").body).toEqual({ rating: 4.5 });
    expect(at("GET /visitors/v1/recent").body).toEqual({ skus: ["tea"] });
    expect(at("GET /products/nope/eu").status).toBe(404);
    expect(at("POST /products", 2)).toMatchObject({
      status: 400,
      body: { code: "invalid_argument", message: "unable to decode request body: price: invalid type: floating point `12.5`, expected a decimal" },
    });
    expect(at("GET /prefs").body).toEqual({ theme: "light", visits: 0 });
    expect(at("GET /prefs", 1).body).toEqual({ theme: "dark", visits: 3 });
    const saved = at("POST /prefs/theme");
    expect(saved.body).toEqual({ theme: "dark" });
    expect(saved.setCookie).toEqual(["theme=dark; HttpOnly; SameSite=Lax; Path=/; Max-Age=31536000", "visits=4; Path=/"]);
    expect(at("GET /prefs", 2)).toMatchObject({ status: 400, body: { message: "invalid number value: many" } });
    for (let i = 0; i < accounts.length; i++) {
      expect(at(`GET /ledger/accounts/${accounts[i]}`).body).toEqual({ account: accounts[i], balance: "0.5", applied: 5, outOfOrder: 0 });
    }
    expect(at("POST /ledger/entries", 15)).toMatchObject({ status: 400, body: { message: "unable to decode request body: amount: invalid decimal: Failed to parse decimal from string: ten" } });
  }, 180_000);

  test("answers it the same way on Redis, NATS and a PostgreSQL server", async () => {
    expect(onDefaults).not.toEqual([]);
    expect(await sessionOn(servers())).toEqual(onDefaults);
    // And it was carried by them: the cache's keys in Redis, the topic's stream in NATS, the ledger on the server.
    expect(await redisKeys()).toContain(`${prefix}catalog/product/tea/eu`);
    expect(await natsStreams()).toContain(`${natsPrefix(prefix)}_ledger-entries`);
    expect(await serverDatabases()).toContain(`${prefix}ledger`);
  }, 180_000);

  test("passes its own tests on the defaults and on the servers", async () => {
    const local = await runToEnd(process.execPath, [main, "test"], app, userEnv());
    expect(local.code, local.output).toBe(0);
    expect(local.output).toMatch(/Tests\s+9 passed/);
    const onServers = await runToEnd(process.execPath, [main, "test"], app, userEnv({ TEST_DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, NATS_URL: natsUrl }));
    expect(onServers.code, onServers.output).toBe(0);
    expect(onServers.output).toMatch(/Tests\s+9 passed/);
  }, 300_000);
});
