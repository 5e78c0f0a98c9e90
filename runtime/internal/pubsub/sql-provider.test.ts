import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { refusedConnection } from "../../test/closed-port.ts";
import { freshDriver } from "../../test/driver.ts";
import type { SqlDriver } from "../sql/driver.ts";
import type { Delivery, PubSubProvider, SubscriptionSpec } from "./provider.ts";
import { subscriptionSpec } from "./specs.ts";
import { sqlProvider } from "./sql-provider.ts";

const quiet = { warn: () => {} };
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

describe("SQL pub/sub provider", () => {
  test("the publisher's traceparent travels with the message to its delivery; a message published without one has none", async () => {
    const got: Delivery[] = [];
    const p = await provider([spec("s")], [async (d) => void got.push(d)]);
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const traced = await p.publish("events", "{}", traceparent);
    const plain = await p.publish("events", "{}");
    await until(() => got.length === 2, "both deliveries");
    expect(got.find((d) => d.messageId === traced)?.traceparent).toBe(traceparent);
    expect(got.find((d) => d.messageId === plain)).not.toHaveProperty("traceparent");
  });

  test("a published message reaches the handler with its id, and is then gone", async () => {
    const got: Delivery[] = [];
    const p = await provider([spec("s")], [async (d) => void got.push(d)]);
    const id = await p.publish("events", '{"n":1}');
    await until(() => got.length === 1, "delivery");
    expect(got[0]).toMatchObject({ messageId: id, payload: '{"n":1}', attempt: 1 });
    await new Promise((r) => setTimeout(r, 100));
    expect(await p.stats()).toEqual([{ topic: "events", subscription: "s", backlog: 0, inFlight: 0, deadLetters: 0 }]);
    expect(await driver.query("SELECT count(*)::int AS n FROM pubsub_message", [])).toEqual([{ n: 0 }]);
  });

  test("every subscription receives every message", async () => {
    const a: string[] = [];
    const b: string[] = [];
    const p = await provider([spec("a"), spec("b")], [async (d) => void a.push(d.payload), async (d) => void b.push(d.payload)]);
    for (let i = 0; i < 20; i++) await p.publish("events", String(i));
    await until(() => a.length === 20 && b.length === 20, "both subscriptions");
    expect(new Set(a).size).toBe(20);
    expect(new Set(b).size).toBe(20);
  });

  test("a failing handler is retried with growing backoff, then dead-lettered after maxRetries", async () => {
    const times: number[] = [];
    const logged: { obj: Record<string, unknown>; msg: string }[] = [];
    const log = { warn: (obj: object, msg: string) => void logged.push({ obj: obj as Record<string, unknown>, msg }) };
    const p = await provider(
      [spec("s")],
      [
        async () => {
          times.push(Date.now());
          throw new Error("boom");
        },
      ],
      driver,
      { log },
    );
    const messageId = await p.publish("events", "{}");
    await until(() => times.length === 4, "1 delivery + 3 retries");
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // 50, 100, 200 ms of backoff (allowing for timer granularity)
    expect(gaps[0]).toBeGreaterThanOrEqual(45);
    expect(gaps[1]).toBeGreaterThanOrEqual(95);
    expect(gaps[2]).toBeGreaterThanOrEqual(195);
    expect(gaps[2]!).toBeGreaterThan(gaps[0]!);
    await new Promise((r) => setTimeout(r, 500));
    expect(times).toHaveLength(4);
    expect((await p.stats())[0]).toMatchObject({ deadLetters: 1, backlog: 0, inFlight: 0 });
    // Each failure is logged with the message, its attempt and what comes next.
    const failures = logged.filter((l) => l.msg === "pub/sub: a subscription handler failed").map((l) => l.obj);
    expect(failures.map(({ err, ...rest }) => ({ ...rest, err: (err as Error).message }))).toEqual([
      { topic: "events", subscription: "s", messageId, attempt: 1, retryInMs: 50, err: "boom" },
      { topic: "events", subscription: "s", messageId, attempt: 2, retryInMs: 100, err: "boom" },
      { topic: "events", subscription: "s", messageId, attempt: 3, retryInMs: 200, err: "boom" },
      { topic: "events", subscription: "s", messageId, attempt: 4, deadLettered: true, err: "boom" },
    ]);
  });

  test("a handler still running after its ack deadline gets the message delivered again", async () => {
    const attempts: number[] = [];
    const p = await provider([spec("s", { ackDeadlineMs: 300 })], [
      async (d) => {
        attempts.push(d.attempt);
        if (d.attempt === 1) await new Promise((r) => setTimeout(r, 1500));
      },
    ]);
    await p.publish("events", "{}");
    await until(() => attempts.length === 2, "redelivery");
    expect(attempts).toEqual([1, 2]);
  });

  test("no more than maxConcurrency handlers run at once", async () => {
    let running = 0;
    let peak = 0;
    let done = 0;
    const p = await provider([spec("s", { maxConcurrency: 3 })], [
      async () => {
        peak = Math.max(peak, ++running);
        await new Promise((r) => setTimeout(r, 30));
        running--;
        done++;
      },
    ]);
    await Promise.all(Array.from({ length: 20 }, (_, i) => p.publish("events", String(i))));
    await until(() => done === 20, "all handled");
    expect(peak).toBe(3);
  });

  test("re-driving brings dead letters back to that subscription only", async () => {
    let failing = true;
    const a: number[] = [];
    const b: number[] = [];
    const p = await provider([spec("a", { maxRetries: 1 }), spec("b")], [
      async (d) => {
        a.push(d.attempt);
        if (failing) throw new Error("down");
      },
      async (d) => void b.push(d.attempt),
    ]);
    await p.publish("events", "{}");
    await until(() => a.length === 2 && b.length === 1, "dead letter");
    await new Promise((r) => setTimeout(r, 100));
    expect((await p.stats()).find((s) => s.subscription === "a")?.deadLetters).toBe(1);
    failing = false;
    expect(await p.redrive("events", "a")).toBe(1);
    await until(() => a.length === 3, "redelivery");
    await new Promise((r) => setTimeout(r, 300));
    expect(b).toEqual([1]);
    expect((await p.stats()).find((s) => s.subscription === "a")?.deadLetters).toBe(0);
  });

  test("two instances on one database handle each message once", async () => {
    const handled: string[] = [];
    const record = async (d: Delivery) => void handled.push(d.messageId);
    const first = await provider([spec("s", { maxConcurrency: 10 })], [record]);
    // The second instance has its own connection pool.
    await provider([spec("s", { maxConcurrency: 10 })], [record], await reopen());
    const ids = await Promise.all(Array.from({ length: 200 }, (_, i) => first.publish("events", String(i))));
    await until(() => handled.length >= 200, "200 deliveries");
    await new Promise((r) => setTimeout(r, 300));
    expect(handled).toHaveLength(200);
    expect(new Set(handled)).toEqual(new Set(ids));
  });

  test("close waits for a running handler and stops deliveries", async () => {
    let finished = 0;
    let started = 0;
    const p = await provider([spec("s")], [
      async () => {
        started++;
        await new Promise((r) => setTimeout(r, 200));
        finished++;
      },
    ]);
    await p.publish("events", "{}");
    await until(() => started === 1, "start");
    await p.close(2000);
    expect(finished).toBe(1);
    providers.splice(providers.indexOf(p), 1);
    const other = sqlProvider({ driver, log: quiet });
    await other.start([topic], [spec("s")]);
    await other.publish("events", "{}");
    await new Promise((r) => setTimeout(r, 300));
    expect(started).toBe(1);
  });
});

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
    // A look is a claim plus the next-due query: 4 intervals, 8 statements at most.
    // (The bug this guards against made thousands.)
    expect(db.count() - before).toBeLessThanOrEqual(8);
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

describe("topics without subscriptions", () => {
  const count = async (where: string): Promise<number> =>
    ((await driver.query(`SELECT count(*)::int AS n FROM pubsub_message WHERE ${where}`, [])) as { n: number }[])[0]!.n;

  test("a message published to a topic without subscriptions is not stored, and its publish still gives an id", async () => {
    const got: Delivery[] = [];
    const p = await provider([spec("s")], [async (d) => void got.push(d)]);
    const ids = await Promise.all([p.publish("unheard", "{}"), p.publish("events", "{}"), p.publish("unheard", "{}")]);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await until(() => got.length === 1, "the subscribed topic's delivery");
    expect(got[0]!.messageId).toBe(ids[1]);
    expect(await count("topic = 'unheard'")).toBe(0);
  });

  test("messages stored without deliveries by earlier versions are deleted at start, in batches, and pending ones kept", async () => {
    // The schema, and one message pending for a subscription that has no handler here.
    const first = await provider([spec("s")], []);
    await first.publish("events", '{"pending":true}');
    await first.close(0);
    // 2,500 messages of a topic nobody subscribes to, as earlier versions stored them: three batches.
    await driver.query(
      `INSERT INTO pubsub_message (id, topic, payload) SELECT gen_random_uuid(), 'order-created', '{}' FROM generate_series(1, 2500)`,
      [],
    );
    const infos: object[] = [];
    await provider([spec("s")], [], driver, { log: { warn: () => {}, info: (obj: object) => void infos.push(obj) } });
    await expect.poll(() => count("topic = 'order-created'"), { timeout: 10_000 }).toBe(0);
    expect(await count("topic = 'events'")).toBe(1);
    expect((await driver.query("SELECT count(*)::int AS n FROM pubsub_delivery", [])) as unknown).toEqual([{ n: 1 }]);
    await expect.poll(() => infos).toEqual([{ deleted: 2500 }]);
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
