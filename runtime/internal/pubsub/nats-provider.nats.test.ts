import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { connect } from "nats";
import { natsNames } from "./nats-names.ts";
import { deleteNatsStreams, natsProvider } from "./nats-provider.ts";
import { retryDelayMs, type Delivery, type PubSubProvider, type SubscriptionSpec } from "./provider.ts";

const url = process.env.TEST_NATS_URL?.trim();
if (!url) {
  throw new Error("TEST_NATS_URL is not set: these tests need nats-server with JetStream, e.g. TEST_NATS_URL=nats://127.0.0.1:4222");
}
const natsUrl: string = url;

// Every stream this file creates lives under this prefix and is deleted afterwards.
const prefix = `test_${randomUUID().slice(0, 8)}`;
const problems: string[] = [];
const logger = {
  warn: (_obj: object, msg: string) => void msg,
  error: (obj: object, msg: string) => void problems.push(`${msg} ${JSON.stringify(obj)}`),
};
const open: PubSubProvider[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close(0)));
  expect(problems.splice(0)).toEqual([]);
});
afterAll(() => deleteNatsStreams(natsUrl, prefix));

function sub(topic: string, name: string, overrides: Partial<SubscriptionSpec> = {}): SubscriptionSpec {
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

/** A provider (another connection each time) with the topic's streams and consumers in place. */
async function provider(topic: string, subs: SubscriptionSpec[]): Promise<PubSubProvider> {
  const p = natsProvider({ url: natsUrl, streamPrefix: prefix, logger });
  open.push(p);
  await p.start([{ name: topic, deliveryGuarantee: "at-least-once" }], subs);
  return p;
}

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
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

describe("NATS JetStream pub/sub provider", () => {
  test("a published message reaches the handler with its payload and id", async () => {
    const s = sub("signups", "welcome-email");
    const p = await provider("signups", [s]);
    const got: Delivery[] = [];
    p.subscribe(s, async (d) => void got.push(d));

    const before = Date.now();
    const id = await p.publish("signups", JSON.stringify({ user: "ada" }));

    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    await waitFor("the delivery", () => got.length === 1);
    expect(got[0]).toMatchObject({ messageId: id, payload: '{"user":"ada"}', attempt: 1 });
    expect(got[0]!.publishedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(got[0]!.publishedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  test("a topic without subscriptions keeps none of its messages (interest retention), and a publish still gives an id", async () => {
    const p = await provider("unheard", []);
    for (let i = 0; i < 3; i++) expect(await p.publish("unheard", "{}")).toMatch(/^[0-9a-f-]{36}$/);
    const nc = await connect({ servers: natsUrl });
    try {
      const info = await (await nc.jetstreamManager()).streams.info(natsNames(prefix).stream("unheard"));
      expect(info.state.messages).toBe(0);
      expect(info.state.last_seq).toBe(3); // stored and dropped at once, not refused
    } finally {
      await nc.close();
    }
  });

  test("every subscription of a topic gets every message", async () => {
    const audit = sub("clicks", "audit");
    const counter = sub("clicks", "counter");
    const p = await provider("clicks", [audit, counter]);
    const seen = { audit: [] as string[], counter: [] as string[] };
    p.subscribe(audit, async (d) => void seen.audit.push(d.messageId));
    p.subscribe(counter, async (d) => void seen.counter.push(d.messageId));

    const ids = await Promise.all([1, 2, 3, 4, 5].map((n) => p.publish("clicks", JSON.stringify({ n }))));

    await waitFor("both subscriptions", () => seen.audit.length === 5 && seen.counter.length === 5);
    expect(seen.audit.sort()).toEqual([...ids].sort());
    expect(seen.counter.sort()).toEqual([...ids].sort());
  });

  test("a failing message is retried with growing backoff, then dead-lettered and left alone", async () => {
    const s = sub("payments", "charge", { maxRetries: 3 });
    const p = await provider("payments", [s]);
    const attempts: { attempt: number; at: number }[] = [];
    p.subscribe(s, async (d) => {
      attempts.push({ attempt: d.attempt, at: performance.now() });
      throw new Error("card declined\nsecond line");
    });

    await p.publish("payments", "{}");

    await waitFor("the dead letter", async () => (await statsOf(p, "payments", "charge")).deadLetters === 1);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
    const gaps = attempts.slice(1).map((a, i) => a.at - attempts[i]!.at);
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(retryDelayMs(i + 1, s) - 15));
    expect(gaps[1]).toBeGreaterThan(gaps[0]!);
    expect(gaps[2]).toBeGreaterThan(gaps[1]!);

    await sleep(2 * s.maxBackoffMs + s.ackDeadlineMs);
    expect(attempts).toHaveLength(4);
    expect(await statsOf(p, "payments", "charge")).toMatchObject({ backlog: 0, inFlight: 0, deadLetters: 1 });
  });

  test("a handler running past its ack deadline gets the message delivered again", async () => {
    const s = sub("reports", "render", { ackDeadlineMs: 1000, maxConcurrency: 2 });
    const p = await provider("reports", [s]);
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
    const p = await provider("thumbnails", [s]);
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

  test("redriving dead letters delivers them again to that subscription only", async () => {
    const flaky = sub("invoices", "send", { maxRetries: 1 });
    const steady = sub("invoices", "archive");
    const p = await provider("invoices", [flaky, steady]);
    let healthy = false;
    const sent: Delivery[] = [];
    const archived: string[] = [];
    p.subscribe(flaky, async (d) => {
      if (!healthy) throw new Error("mail server down");
      sent.push(d);
    });
    p.subscribe(steady, async (d) => void archived.push(d.messageId));

    const id = await p.publish("invoices", "{}");
    await waitFor("the dead letter", async () => (await statsOf(p, "invoices", "send")).deadLetters === 1);
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

  test("the publisher's traceparent travels with the message, through a dead letter and its redrive", async () => {
    const s = sub("traced", "work", { maxRetries: 0 });
    const p = await provider("traced", [s]);
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
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

  test("two instances on one subscription handle each message once between them", async () => {
    const s = sub("events", "index");
    const a = await provider("events", [s]);
    const b = await provider("events", [s]);
    const handled: string[] = [];
    const byInstance = { a: 0, b: 0 };
    a.subscribe(s, async (d) => void (handled.push(d.messageId), byInstance.a++));
    b.subscribe(s, async (d) => void (handled.push(d.messageId), byInstance.b++));

    const ids = await Promise.all(Array.from({ length: 200 }, (_, n) => a.publish("events", JSON.stringify({ n }))));

    await waitFor("200 handled", () => new Set(handled).size === 200);
    await sleep(300);
    expect(handled).toHaveLength(200);
    expect(new Set(handled)).toEqual(new Set(ids));
    expect(byInstance.a).toBeGreaterThan(0);
    expect(byInstance.b).toBeGreaterThan(0);
  });

  test("close waits for a running handler, and nothing is delivered afterwards", async () => {
    const s = sub("exports", "zip");
    const worker = await provider("exports", [s]);
    const publisher = await provider("exports", [s]);
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
    // The handled message was acknowledged before the connection closed; the new ones wait.
    expect(await statsOf(publisher, "exports", "zip")).toMatchObject({ backlog: 3, inFlight: 0, deadLetters: 0 });
  });

  test("close gives up on a handler that outlasts the grace period", async () => {
    const s = sub("imports", "parse");
    const p = await provider("imports", [s]);
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
