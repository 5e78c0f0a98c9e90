// The SQL provider: what every provider does (provider.cases.ts), then what is its own:
// polling and LISTEN/NOTIFY, a database that goes away, messages of earlier versions.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { refusedConnection } from "../../test/closed-port.ts";
import { freshDriver } from "../../test/driver.ts";
import type { SqlDriver } from "../sql/driver.ts";
import { pubSubProviderCases, topicSpecs } from "./provider.cases.ts";
import type { Delivery, PubSubProvider, SubscriptionSpec } from "./provider.ts";
import { subscriptionSpec } from "./specs.ts";
import { sqlProvider } from "./sql-provider.ts";
import { pubsubMigrations } from "./sql-schema.ts";
import { applyMigrations } from "../sql/migrations.ts";

const quiet = { warn: () => {} };
const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const topic = { name: "events", deliveryGuarantee: "at-least-once" } as const;

function spec(name: string, overrides: Partial<SubscriptionSpec> = {}): SubscriptionSpec {
  return {
    ...subscriptionSpec("events", name, { retryPolicy: { minBackoff: "50ms", maxBackoff: "400ms", maxRetries: 3 } }),
    ...overrides,
  };
}

function until(check: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (check()) return resolve();
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(poll, 10);
    };
    poll();
  });
}

let driver: SqlDriver;
let drop: () => Promise<void>;
let reopen: () => Promise<SqlDriver>;
let connectionString: string;
const providers: PubSubProvider[] = [];

async function provider(
  subs: SubscriptionSpec[],
  handlers: ((d: Delivery) => Promise<void>)[],
  on: SqlDriver = driver,
  options: { listenUrl?: string; pollIntervalMs?: number; log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void } } = {},
): Promise<PubSubProvider> {
  const p = sqlProvider({ driver: on, log: quiet, pollIntervalMs: 200, ...options });
  providers.push(p);
  await p.start([topic], subs);
  subs.forEach((s, i) => p.subscribe(s, handlers[i]!));
  return p;
}

beforeEach(async () => {
  ({ driver, drop, reopen, connectionString } = await freshDriver());
});

afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.close(1000)));
  await drop();
});

/** Messages stored for some subscription: each delivery row carries its message. */
const storedMessages = async (where: string, params: unknown[] = []): Promise<number> =>
  ((await driver.query(`SELECT count(DISTINCT message_id)::int AS n FROM pubsub_delivery WHERE ${where}`, params)) as { n: number }[])[0]!.n;

// Each instance has a connection pool of its own on the test's database, and no LISTEN:
// the cases hold for a subscriber that finds messages by polling.
pubSubProviderCases("SQL", {
  async instance(topics, subscriptions, warn = () => {}) {
    const p = sqlProvider({ driver: await reopen(), log: { warn }, pollIntervalMs: 200 });
    providers.push(p);
    await p.start(topicSpecs(topics), subscriptions);
    return p;
  },
  storedMessages: (topic) => storedMessages("topic = $1", [topic]),
});

/** Another instance publishes: the subscriber (whose delivery times go into `got`) is woken by NOTIFY at once. */
async function expectWokenByAnotherInstance(got: readonly number[]): Promise<void> {
  const other = sqlProvider({ driver: await reopen(), log: quiet, listenUrl: connectionString });
  providers.push(other);
  await other.start([topic], [spec("s")]);
  const sent = Date.now();
  await other.publish("events", "{}");
  await until(() => got.length === 1, "delivery woken by NOTIFY", 5000);
  expect(got[0]! - sent).toBeLessThan(1000); // far below the 60 s poll interval
}

describe("a database that goes away", () => {
  test("an idle subscriber keeps looking once per poll interval, not continuously, and delivers what waited once it is back", async () => {
    const refused = await refusedConnection();
    let away = false;
    let refusedLooks = 0;
    const fail = () => (refusedLooks++, Promise.reject(refused));
    // Statements fail as they do while the server is stopped, with the error node-postgres gives then.
    const flaky: SqlDriver = {
      query: (text, params) => (away ? fail() : driver.query(text, params)),
      execScript: (sql) => (away ? fail() : driver.execScript(sql)),
      begin: () => (away ? fail() : driver.begin()),
      acquire: () => (away ? fail() : driver.acquire()),
      close: () => driver.close(),
    };
    const got: string[] = [];
    await provider([spec("s")], [async (d) => void got.push(d.payload)], flaky, { pollIntervalMs: 200 });
    await sleep(300);
    away = true;
    const publisher = sqlProvider({ driver: await reopen(), log: quiet });
    providers.push(publisher);
    await publisher.start([topic], [spec("s")]);
    await publisher.publish("events", '{"n":1}'); // stored; the subscriber cannot see it yet
    await sleep(1000);
    expect(got).toEqual([]);
    expect(refusedLooks).toBeGreaterThanOrEqual(2);
    expect(refusedLooks).toBeLessThanOrEqual(7); // about one per 200 ms
    away = false;
    await until(() => got.length === 1, "the delivery once the database is back", 3000);
    expect(got).toEqual(['{"n":1}']);
  });
});

/** The driver, counting the statements sent through it. */
function counting(inner: SqlDriver): { driver: SqlDriver; count: () => number } {
  let n = 0;
  const driver: SqlDriver = {
    ...inner,
    query: (text, params) => (n++, inner.query(text, params)),
    execScript: (sql) => (n++, inner.execScript(sql)),
    begin: () => (n++, inner.begin()),
    acquire: () => (n++, inner.acquire()),
    close: () => inner.close(),
  };
  return { driver, count: () => n };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("an idle SQL subscriber", () => {
  test("without LISTEN it looks for messages once per poll interval, not continuously", async () => {
    const got: string[] = [];
    const db = counting(driver);
    const p = await provider([spec("s")], [async (d) => void got.push(d.payload)], db.driver, { pollIntervalMs: 500 });
    await p.publish("events", "{}");
    await until(() => got.length === 1, "delivery");
    await sleep(300); // the ack and the look after it
    const before = db.count();
    await sleep(2000);
    // A look is one statement (the claim tells when the next delivery is due): 4 intervals,
    // one more at an edge. (The bug this guards against made thousands.)
    expect(db.count() - before).toBeLessThanOrEqual(5);
  });

  test("with LISTEN up it runs no query at all, and another instance's publish still wakes it at once", async () => {
    const got: number[] = [];
    const db = counting(driver);
    await provider([spec("s")], [async () => void got.push(Date.now())], db.driver, {
      listenUrl: connectionString,
      pollIntervalMs: 60_000,
    });
    await sleep(500); // LISTEN connects, and the look that follows it finds nothing
    const before = db.count();
    await sleep(2000);
    expect(db.count() - before).toBe(0);

    await expectWokenByAnotherInstance(got);
  });
});

describe("batches", () => {
  /** An instance that publishes and delivers nothing itself. */
  async function publisher(): Promise<PubSubProvider> {
    const p = sqlProvider({ driver: await reopen(), log: quiet });
    providers.push(p);
    await p.start([topic], [spec("s")]);
    return p;
  }

  test("a backlog is claimed and acknowledged many deliveries per statement, each delivered once", async () => {
    const p = await publisher();
    await Promise.all(Array.from({ length: 2000 }, (_, n) => p.publish("events", JSON.stringify({ n }))));
    const got = new Set<string>();
    let handled = 0;
    const db = counting(await reopen());
    await provider([spec("s", { maxConcurrency: 24 })], [async (d) => void (handled++, got.add(d.payload))], db.driver);
    await until(() => got.size === 2000, "2,000 deliveries");
    await expect.poll(() => storedMessages("true"), { timeout: 5000 }).toBe(0);
    expect(handled).toBe(2000);
    // One at a time, that would be 4,000 statements (a claim and an ack each).
    expect(db.count()).toBeLessThan(200);
  });

  test("deliveries claimed ahead and not started are handed back at close, due at once for another instance, their attempt not counted", async () => {
    const p = await publisher();
    await Promise.all(Array.from({ length: 1000 }, (_, n) => p.publish("events", JSON.stringify({ n }))));
    // Fast handlers, so the subscriber claims ahead; then two that hang, holding both slots.
    let release = () => {};
    const hung = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    const first = await provider([spec("s", { maxConcurrency: 2 })], [async () => void (++started > 300 && (await hung))], await reopen());
    await until(() => started >= 302, "300 handled and two hanging");
    // The two running, and the ones claimed ahead (a claim may still be on its way).
    await expect.poll(async () => (await p.stats())[0]!.inFlight).toBeGreaterThan(2);
    await first.close(0);

    const attempts: number[] = [];
    await provider([spec("s")], [async (d) => void attempts.push(d.attempt)], await reopen());
    // All but the two hanging ones, long before their 30 s lease would run out.
    await until(() => attempts.length >= 1000 - 300 - 2, "the handed-back deliveries", 5000);
    expect(attempts.every((a) => a === 1)).toBe(true);
    release();
  });
});

describe("the store of an earlier version", () => {
  test("pending deliveries keep their messages (payload, publish time, traceparent) and are delivered; messages no one was to receive are gone", async () => {
    // The schema as version 2 left it, with what it stored: a message pending for "s",
    // its delivery leased by an instance that died, and one no subscription was to receive.
    await applyMigrations(driver, pubsubMigrations.slice(0, 2));
    await driver.query(
      `INSERT INTO pubsub_message (id, topic, payload, published_at, traceparent) VALUES
         ('00000000-0000-4000-8000-000000000001', 'events', '{"n":1}', '2026-11-01T10:00:00Z', $1),
         ('00000000-0000-4000-8000-000000000002', 'order-created', '{}', '2026-11-01T10:00:00Z', NULL)`,
      [traceparent],
    );
    await driver.query(
      `INSERT INTO pubsub_delivery (topic, subscription, message_id, state, attempts, visible_at)
       VALUES ('events', 's', '00000000-0000-4000-8000-000000000001', 'leased', 1, now())`,
      [],
    );
    const got: Delivery[] = [];
    await provider([spec("s", { messageRetentionMs: 365 * 86_400_000 })], [async (d) => void got.push(d)]);
    await until(() => got.length === 1, "the pending delivery");
    expect(got[0]).toEqual({
      messageId: "00000000-0000-4000-8000-000000000001",
      payload: '{"n":1}',
      attempt: 2,
      publishedAt: new Date("2026-11-01T10:00:00Z"),
      traceparent,
    });
    const tables = await driver.query("SELECT to_regclass('pubsub_message') AS t", []);
    expect(tables).toEqual([{ t: null }]);
    await expect.poll(() => storedMessages("true")).toBe(0);
  });
});

describe("the LISTEN connection", () => {
  /** The backends listening on this test's database, once there are `n` and none is in `not`. */
  async function listeners(n: number, not: readonly number[] = []): Promise<number[]> {
    let pids: number[] = [];
    for (const deadline = Date.now() + 5000; Date.now() < deadline; await sleep(50)) {
      const rows = await driver.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN encore_pubsub'", []);
      pids = rows.map((r) => r.pid as number);
      if (pids.length === n && !pids.some((p) => not.includes(p))) break;
    }
    return pids;
  }

  test("ended by the server, it comes back by itself, once, and another instance's publish wakes subscribers at once again", async () => {
    const got: number[] = [];
    await provider([spec("s")], [async () => void got.push(Date.now())], driver, { listenUrl: connectionString, pollIntervalMs: 60_000 });
    const first = await listeners(1);
    expect(first).toHaveLength(1);
    await driver.query("SELECT pg_terminate_backend($1)", [first[0]]);
    const again = await listeners(1, first);
    expect(again).toHaveLength(1);
    expect(again[0]).not.toBe(first[0]);

    await expectWokenByAnotherInstance(got);
  });
});

describe("ordered topics on the SQL store", () => {
  const ordered = { name: "events", deliveryGuarantee: "at-least-once", orderingAttribute: "key" } as const;

  async function orderedInstance(handler: (d: Delivery) => Promise<void>, on: SqlDriver): Promise<PubSubProvider> {
    const p = sqlProvider({ driver: on, log: quiet, listenUrl: connectionString, pollIntervalMs: 60_000 });
    providers.push(p);
    await p.start([ordered], [spec("s")]);
    p.subscribe(spec("s"), handler);
    return p;
  }

  test("idle with LISTEN up, an ordered subscriber runs no query at all", async () => {
    const got: string[] = [];
    const db = counting(await reopen());
    const p = await orderedInstance(async (d) => void got.push(d.payload), db.driver);
    await p.publish("events", '{"key":"a"}', undefined, "a");
    await until(() => got.length === 1, "the delivery");
    await sleep(500); // the ack, and the look it makes
    const before = db.count();
    await sleep(2000);
    expect(db.count() - before).toBe(0);
  });

  test("the next message of a key whose message an instance handled as it closed goes to another instance at once", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const first: string[] = [];
    const a = await orderedInstance(async (d) => {
      first.push(d.payload);
      await held;
    }, await reopen());
    await a.publish("events", '{"n":0}', undefined, "k");
    await a.publish("events", '{"n":1}', undefined, "k");
    await until(() => first.length === 1, "the first message in the first instance");
    const second: number[] = [];
    // Its look finds the key held, so only a lease running out (30 s) or a poll (60 s) would wake it.
    await orderedInstance(async () => void second.push(Date.now()), await reopen());
    await sleep(300);
    expect(second).toEqual([]);

    const closing = a.close(5000);
    release();
    await closing;
    const closed = Date.now();
    await until(() => second.length === 1, "the next message in the other instance", 5000);
    expect(second[0]! - closed).toBeLessThan(1000);
    expect(first).toEqual(['{"n":0}']);
  });

  test("a key's backlog takes one statement per message: acknowledging one leases the next", async () => {
    const publisher = sqlProvider({ driver: await reopen(), log: quiet });
    providers.push(publisher);
    await publisher.start([ordered], [spec("s")]);
    for (let n = 0; n < 30; n++) await publisher.publish("events", JSON.stringify({ n }), undefined, "k");

    const db = counting(await reopen());
    const p = sqlProvider({ driver: db.driver, log: quiet, pollIntervalMs: 60_000 });
    providers.push(p);
    await p.start([ordered], [spec("s")]);
    const before = db.count();
    const got: number[] = [];
    p.subscribe(spec("s"), async (d) => void got.push((JSON.parse(d.payload) as { n: number }).n));
    await until(() => got.length === 30, "the key's 30 messages");
    await sleep(300); // the last acknowledgement
    expect(got).toEqual(Array.from({ length: 30 }, (_, n) => n));
    // The first claim, 30 acknowledgements (29 leasing the next), and the look after the
    // last, which found none to lease. A claim after each acknowledgement would make 60.
    expect(db.count() - before).toBeLessThanOrEqual(33);
  });

  test("messages pending from before the topic was ordered are delivered once it is", async () => {
    const before = sqlProvider({ driver: await reopen(), log: quiet });
    providers.push(before);
    await before.start([topic], [spec("s")]);
    await before.publish("events", '{"n":0}');
    await before.publish("events", '{"n":1}');
    await before.close(0);

    const got: string[] = [];
    await orderedInstance(async (d) => void got.push(d.payload), await reopen());
    await until(() => got.length === 2, "both pending messages");
    expect(got.sort()).toEqual(['{"n":0}', '{"n":1}']);
  });
});
