// What every pub/sub provider does, as test cases run against each one: sql-provider.test.ts
// and nats-provider.nats.test.ts call pubSubProviderCases with a harness of their own, and
// keep beside it only what is particular to their engine.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import { retryDelayMs, type Delivery, type PubSubProvider, type SubscriptionSpec, type TopicSpec } from "./provider.ts";

/** What a provider logs through; the cases read its warnings. */
export type Warn = (obj: object, msg: string) => void;

export interface PubSubHarness {
  /**
   * Another instance of the provider, with connections of its own, as a second process
   * would have: started with `topics` (a name: at-least-once, unordered; see topicSpecs)
   * and `subscriptions`, and closed by the implementation's file after the test. Each
   * case uses topics no other case uses.
   */
  instance(topics: readonly (string | TopicSpec)[], subscriptions: readonly SubscriptionSpec[], warn?: Warn): Promise<PubSubProvider>;
  /** How many of `topic`'s messages the engine still stores. */
  storedMessages(topic: string): Promise<number>;
}

/** Topics as instance() takes them, as the provider's start() takes them. */
export function topicSpecs(topics: readonly (string | TopicSpec)[]): TopicSpec[] {
  return topics.map((t) => (typeof t === "string" ? { name: t, deliveryGuarantee: "at-least-once" } : t));
}

export function sub(topic: string, name: string, overrides: Partial<SubscriptionSpec> = {}): SubscriptionSpec {
  return {
    topic,
    name,
    maxConcurrency: 10,
    ackDeadlineMs: 1000,
    messageRetentionMs: 60_000,
    minBackoffMs: 50,
    maxBackoffMs: 400,
    maxRetries: 3,
    ...overrides,
  };
}

export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

async function statsOf(p: PubSubProvider, topic: string, subscription: string) {
  const s = (await p.stats()).find((x) => x.topic === topic && x.subscription === subscription);
  if (!s) throw new Error(`no stats for ${topic}/${subscription}`);
  return s;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

/** The cases, in a describe block named after the provider. */
export function pubSubProviderCases(provider: string, harness: PubSubHarness): void {
  const { instance, storedMessages } = harness;

  describe(`${provider}: what every pub/sub provider does`, () => {
    test("a published message reaches the handler with its payload, id and publish time, and once handled is no longer stored", async () => {
      const s = sub("signups", "welcome-email");
      const p = await instance(["signups"], [s]);
      const got: Delivery[] = [];
      p.subscribe(s, async (d) => void got.push(d));

      const before = Date.now();
      const id = await p.publish("signups", JSON.stringify({ user: "ada" }));

      expect(id).toMatch(uuid);
      await waitFor("the delivery", () => got.length === 1);
      expect(got[0]).toMatchObject({ messageId: id, payload: '{"user":"ada"}', attempt: 1 });
      expect(got[0]!.publishedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(got[0]!.publishedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      await expect.poll(() => storedMessages("signups")).toBe(0);
      await expect.poll(() => p.stats()).toEqual([{ topic: "signups", subscription: "welcome-email", backlog: 0, inFlight: 0, deadLetters: 0 }]);
    });

    test("a topic without subscriptions keeps none of its messages, and its publish still gives an id", async () => {
      const s = sub("heard", "listener");
      const p = await instance(["unheard", "heard"], [s]);
      const got: Delivery[] = [];
      p.subscribe(s, async (d) => void got.push(d));

      const ids = await Promise.all([p.publish("unheard", "{}"), p.publish("heard", "{}"), p.publish("unheard", "{}"), p.publish("unheard", "{}")]);

      for (const id of ids) expect(id).toMatch(uuid);
      expect(new Set(ids).size).toBe(4);
      await waitFor("the subscribed topic's delivery", () => got.length === 1);
      expect(got[0]!.messageId).toBe(ids[1]);
      expect(await storedMessages("unheard")).toBe(0);
    });

    test("every subscription of a topic gets every message, once", async () => {
      const audit = sub("clicks", "audit");
      const counter = sub("clicks", "counter");
      const p = await instance(["clicks"], [audit, counter]);
      const seen = { audit: [] as string[], counter: [] as string[] };
      p.subscribe(audit, async (d) => void seen.audit.push(d.messageId));
      p.subscribe(counter, async (d) => void seen.counter.push(d.messageId));

      const ids = await Promise.all(Array.from({ length: 20 }, (_, n) => p.publish("clicks", JSON.stringify({ n }))));

      await waitFor("both subscriptions", () => seen.audit.length === 20 && seen.counter.length === 20);
      await sleep(200);
      expect(seen.audit.sort()).toEqual([...ids].sort());
      expect(seen.counter.sort()).toEqual([...ids].sort());
    });

    test("a failing message is retried with growing backoff, each failure logged, then dead-lettered and left alone", async () => {
      const s = sub("payments", "charge", { maxRetries: 3 });
      const logged: { obj: Record<string, unknown>; msg: string }[] = [];
      const p = await instance(["payments"], [s], (obj, msg) => void logged.push({ obj: obj as Record<string, unknown>, msg }));
      const attempts: { attempt: number; at: number }[] = [];
      p.subscribe(s, async (d) => {
        attempts.push({ attempt: d.attempt, at: performance.now() });
        // Two lines: an error's message travels with the dead letter, whatever it holds.
        throw new Error("card declined\nsecond line");
      });

      const messageId = await p.publish("payments", "{}");

      await waitFor("the dead letter", async () => (await statsOf(p, "payments", "charge")).deadLetters === 1);
      expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
      // 50, 100, 200 ms of backoff, allowing for timer granularity.
      const gaps = attempts.slice(1).map((a, i) => a.at - attempts[i]!.at);
      gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(retryDelayMs(i + 1, s) - 5));
      expect(gaps[1]).toBeGreaterThan(gaps[0]!);
      expect(gaps[2]).toBeGreaterThan(gaps[1]!);

      await sleep(2 * s.maxBackoffMs + s.ackDeadlineMs);
      expect(attempts).toHaveLength(4);
      expect(await statsOf(p, "payments", "charge")).toMatchObject({ backlog: 0, inFlight: 0, deadLetters: 1 });
      // Each failure names the message, its attempt and what comes next.
      const failures = logged.filter((l) => l.msg === "pub/sub: a subscription handler failed").map((l) => l.obj);
      const err = "card declined\nsecond line";
      expect(failures.map(({ err, ...rest }) => ({ ...rest, err: (err as Error).message }))).toEqual([
        { topic: "payments", subscription: "charge", messageId, attempt: 1, retryInMs: 50, err },
        { topic: "payments", subscription: "charge", messageId, attempt: 2, retryInMs: 100, err },
        { topic: "payments", subscription: "charge", messageId, attempt: 3, retryInMs: 200, err },
        { topic: "payments", subscription: "charge", messageId, attempt: 4, deadLettered: true, err },
      ]);
    });

    test("a handler running past its ack deadline gets the message delivered again", async () => {
      const s = sub("reports", "render", { ackDeadlineMs: 1000, maxConcurrency: 2 });
      const p = await instance(["reports"], [s]);
      const events: string[] = [];
      p.subscribe(s, async (d) => {
        events.push(`start ${d.attempt}`);
        if (d.attempt === 1) await sleep(2500);
        events.push(`end ${d.attempt}`);
      });

      await p.publish("reports", "{}");

      await waitFor("the redelivery", () => events.includes("end 2"), 5000);
      expect(events.slice(0, 3)).toEqual(["start 1", "start 2", "end 2"]);
      await waitFor("the slow run", () => events.includes("end 1"), 5000);
    });

    test("no more than maxConcurrency handlers run at once in an instance", async () => {
      const s = sub("thumbnails", "resize", { maxConcurrency: 3 });
      const p = await instance(["thumbnails"], [s]);
      let running = 0;
      let most = 0;
      let done = 0;
      p.subscribe(s, async () => {
        most = Math.max(most, ++running);
        await sleep(40);
        running--;
        done++;
      });

      await Promise.all(Array.from({ length: 20 }, (_, n) => p.publish("thumbnails", JSON.stringify({ n }))));

      await waitFor("all 20 handled", () => done === 20);
      expect(most).toBe(3);
    });

    test("redriving dead letters delivers them again, from attempt 1, to that subscription only", async () => {
      const flaky = sub("invoices", "send", { maxRetries: 1 });
      const steady = sub("invoices", "archive");
      const p = await instance(["invoices"], [flaky, steady]);
      let healthy = false;
      const failed: number[] = [];
      const sent: Delivery[] = [];
      const archived: string[] = [];
      p.subscribe(flaky, async (d) => {
        if (!healthy) {
          failed.push(d.attempt);
          throw new Error("mail server down");
        }
        sent.push(d);
      });
      p.subscribe(steady, async (d) => void archived.push(d.messageId));

      const id = await p.publish("invoices", "{}");
      await waitFor("the dead letter", async () => (await statsOf(p, "invoices", "send")).deadLetters === 1);
      expect(failed).toEqual([1, 2]);
      expect(archived).toEqual([id]);

      healthy = true;
      expect(await p.redrive("invoices", "send")).toBe(1);

      await waitFor("the redriven delivery", () => sent.length === 1);
      expect(sent[0]).toMatchObject({ messageId: id, payload: "{}", attempt: 1 });
      await waitFor("the redrive settled", async () => {
        const [send, archive] = await Promise.all([statsOf(p, "invoices", "send"), statsOf(p, "invoices", "archive")]);
        return send.deadLetters === 0 && send.inFlight === 0 && archive.backlog === 0 && archive.inFlight === 0;
      });
      await sleep(300);
      expect(archived).toEqual([id]);
      expect(sent).toHaveLength(1);
      expect(await p.redrive("invoices", "send")).toBe(0);
    });

    test("the publisher's traceparent travels with the message, through a dead letter and its redrive; a message published without one has none", async () => {
      const s = sub("traced", "work", { maxRetries: 0 });
      const p = await instance(["traced"], [s]);
      let healthy = false;
      const got: Delivery[] = [];
      p.subscribe(s, async (d) => {
        got.push(d);
        if (!healthy) throw new Error("not yet");
      });
      const id = await p.publish("traced", "{}", traceparent);
      await waitFor("the dead letter", async () => (await statsOf(p, "traced", "work")).deadLetters === 1);
      healthy = true;
      expect(await p.redrive("traced", "work")).toBe(1);
      await waitFor("the redriven delivery", () => got.length === 2);
      expect(got.map((d) => [d.messageId, d.traceparent])).toEqual([
        [id, traceparent],
        [id, traceparent],
      ]);
      const plain = await p.publish("traced", "{}");
      await waitFor("the plain delivery", () => got.length === 3);
      expect(got[2]).toMatchObject({ messageId: plain });
      expect(got[2]).not.toHaveProperty("traceparent");
    });

    test("two instances on one subscription share its messages and handle each once between them", async () => {
      const s = sub("events", "index");
      const a = await instance(["events"], [s]);
      const b = await instance(["events"], [s]);
      const handled: string[] = [];
      const byInstance = { a: 0, b: 0 };
      // Handlers that take a little time, as real ones do, so the work outlasts the moment one instance takes it.
      const handler = (which: "a" | "b") => async (d: Delivery) => {
        await sleep(20);
        handled.push(d.messageId);
        byInstance[which]++;
      };
      a.subscribe(s, handler("a"));
      b.subscribe(s, handler("b"));

      const ids = await Promise.all(Array.from({ length: 200 }, (_, n) => a.publish("events", JSON.stringify({ n }))));

      await waitFor("200 handled", () => new Set(handled).size === 200);
      await sleep(300);
      expect(handled).toHaveLength(200);
      expect(new Set(handled)).toEqual(new Set(ids));
      expect(byInstance.a).toBeGreaterThan(0);
      expect(byInstance.b).toBeGreaterThan(0);
    });

    test("close waits for a running handler, and nothing is delivered to it afterwards", async () => {
      const s = sub("exports", "zip");
      const worker = await instance(["exports"], [s]);
      const publisher = await instance(["exports"], [s]);
      let started = 0;
      let finished = 0;
      worker.subscribe(s, async () => {
        started++;
        await sleep(300);
        finished++;
      });

      await publisher.publish("exports", "{}");
      await waitFor("the handler to start", () => started === 1);
      const closing = performance.now();
      await worker.close(5000);

      expect(finished).toBe(1);
      expect(performance.now() - closing).toBeLessThan(5000);
      await Promise.all([1, 2, 3].map(() => publisher.publish("exports", "{}")));
      await sleep(500);
      expect(started).toBe(1);
      // The handled message was acknowledged before close returned; the new ones wait.
      expect(await statsOf(publisher, "exports", "zip")).toMatchObject({ backlog: 3, inFlight: 0, deadLetters: 0 });
      expect(await storedMessages("exports")).toBe(3);
    });

    test("close gives up on a handler that outlasts the grace period", async () => {
      const s = sub("imports", "parse");
      const p = await instance(["imports"], [s]);
      let started = false;
      p.subscribe(s, async () => {
        started = true;
        await sleep(3000);
      });

      await p.publish("imports", "{}");
      await waitFor("the handler to start", () => started);
      const closing = performance.now();
      await p.close(200);

      expect(performance.now() - closing).toBeLessThan(1500);
    });
  });

  describe(`${provider}: ordered topics (orderingAttribute)`, () => {
    const orderedTopic = (name: string): TopicSpec => ({ name, deliveryGuarantee: "at-least-once", orderingAttribute: "key" });
    /** A message of `key` numbered `n`, as mod.ts hands it over: the payload and the key apart. */
    const publishKeyed = (p: PubSubProvider, topic: string, key: string, n: number) => p.publish(topic, JSON.stringify({ key, n }), undefined, key);
    const parse = (d: Delivery) => JSON.parse(d.payload) as { key: string; n: number };

    test("1,000 messages over 10 keys published from 3 instances: each key's handled in publish order, one at a time across instances, different keys at once", async () => {
      // Fewer slots per instance than keys, so every instance gets keys of its own to handle.
      const s = sub("carts", "fulfil", { maxConcurrency: 3, ackDeadlineMs: 30_000 });
      const instances = [await instance([orderedTopic("carts")], [s]), await instance([orderedTopic("carts")], [s]), await instance([orderedTopic("carts")], [s])];
      const keys = Array.from({ length: 10 }, (_, k) => `cart-${k}`);
      const handled = new Map(keys.map((k) => [k, [] as number[]]));
      const runningPerKey = new Map(keys.map((k) => [k, 0]));
      let running = 0;
      let mostAtOnce = 0;
      let mostOfOneKey = 0;
      const byInstance = [0, 0, 0];
      instances.forEach((p, i) =>
        p.subscribe(s, async (d) => {
          const { key, n } = parse(d);
          runningPerKey.set(key, runningPerKey.get(key)! + 1);
          mostOfOneKey = Math.max(mostOfOneKey, runningPerKey.get(key)!);
          mostAtOnce = Math.max(mostAtOnce, ++running);
          await sleep(2);
          handled.get(key)!.push(n);
          byInstance[i]!++;
          running--;
          runningPerKey.set(key, runningPerKey.get(key)! - 1);
        }),
      );

      // Each key's messages one after another (the order is then defined), by turns from
      // each instance; the keys at once.
      await Promise.all(
        keys.map(async (key) => {
          for (let n = 0; n < 100; n++) await publishKeyed(instances[n % 3]!, "carts", key, n);
        }),
      );

      await waitFor("1,000 handled", () => [...handled.values()].every((ns) => ns.length >= 100), 120_000);
      await sleep(200);
      for (const key of keys) expect(handled.get(key), key).toEqual(Array.from({ length: 100 }, (_, n) => n));
      expect(mostOfOneKey).toBe(1);
      expect(mostAtOnce).toBeGreaterThan(1);
      for (const count of byInstance) expect(count).toBeGreaterThan(0);
    }, 180_000);

    test("a failing message is retried before the next of its key, which waits; other keys go on meanwhile", async () => {
      const s = sub("ledger", "post", { maxRetries: 10, ackDeadlineMs: 30_000 });
      const p = await instance([orderedTopic("ledger")], [s]);
      const events: string[] = [];
      let otherKeyDone = false;
      p.subscribe(s, async (d) => {
        const { key, n } = parse(d);
        events.push(`${key}${n}#${d.attempt}`);
        if (key === "b" && n === 2) otherKeyDone = true;
        // Fails until the other key is through, at least twice.
        if (key === "a" && n === 0 && (!otherKeyDone || d.attempt < 3)) throw new Error("ledger locked");
      });

      for (const [key, n] of [["a", 0], ["a", 1], ["b", 0], ["a", 2], ["b", 1], ["b", 2]] as const) await publishKeyed(p, "ledger", key, n);

      await waitFor("a2 handled", () => events.some((e) => e.startsWith("a2")), 20_000);
      const ofA = events.filter((e) => e.startsWith("a"));
      const failures = ofA.length - 3;
      expect(failures).toBeGreaterThanOrEqual(2);
      expect(ofA).toEqual([...Array.from({ length: failures + 1 }, (_, i) => `a0#${i + 1}`), "a1#1", "a2#1"]);
      expect(events.filter((e) => e.startsWith("b"))).toEqual(["b0#1", "b1#1", "b2#1"]);
      // b went through while a0 was still failing: the retry held up its own key only.
      expect(events.indexOf("b2#1")).toBeLessThan(events.indexOf(`a0#${failures + 1}`));
    });

    test("a message published without a key waits on no other", async () => {
      const s = sub("alerts", "page", { ackDeadlineMs: 30_000 });
      const p = await instance([orderedTopic("alerts")], [s]);
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const handled: string[] = [];
      p.subscribe(s, async (d) => {
        const { key, n } = parse(d);
        if (key === "held" && n === 0) await held;
        handled.push(`${key}${n}`);
      });

      await publishKeyed(p, "alerts", "held", 0);
      await publishKeyed(p, "alerts", "held", 1);
      await p.publish("alerts", JSON.stringify({ key: "", n: 0 }));
      await p.publish("alerts", JSON.stringify({ key: "", n: 1 }));

      await waitFor("the keyless messages", () => handled.length === 2);
      expect(handled.sort()).toEqual(["0", "1"]);
      release();
      await waitFor("the held key", () => handled.length === 4);
      expect(handled.slice(2)).toEqual(["held0", "held1"]);
    });

    test("once a message of a key is dead-lettered, the next of that key is delivered", async () => {
      const s = sub("shipments", "notify", { maxRetries: 1, ackDeadlineMs: 30_000 });
      const p = await instance([orderedTopic("shipments")], [s]);
      const events: string[] = [];
      p.subscribe(s, async (d) => {
        const { n } = parse(d);
        events.push(`${n}#${d.attempt}`);
        if (n === 0) throw new Error("carrier down");
      });

      for (let n = 0; n < 3; n++) await publishKeyed(p, "shipments", "parcel-1", n);

      await waitFor("the rest of the key", () => events.includes("2#1"));
      expect(events).toEqual(["0#1", "0#2", "1#1", "2#1"]);
      await waitFor("the dead letter counted", async () => (await statsOf(p, "shipments", "notify")).deadLetters === 1);
    });
  });
}
