// The NATS JetStream provider: what every provider does (provider.cases.ts), then what is
// its own: streams that keep only what a subscription still has to receive.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { connect } from "nats";
import { natsNames } from "./nats-names.ts";
import { deleteNatsStreams, natsProvider } from "./nats-provider.ts";
import { pubSubProviderCases, topicSpecs, type Warn } from "./provider.cases.ts";
import type { PubSubProvider, SubscriptionSpec, TopicSpec } from "./provider.ts";

const url = process.env.TEST_NATS_URL?.trim();
if (!url) {
  throw new Error("TEST_NATS_URL is not set: these tests need nats-server with JetStream, e.g. TEST_NATS_URL=nats://127.0.0.1:4222");
}
const natsUrl: string = url;

// Every stream this file creates lives under this prefix and is deleted afterwards.
const prefix = `test_${randomUUID().slice(0, 8)}`;
const problems: string[] = [];
const open: PubSubProvider[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close(0)));
  // Nothing in a case is meant to make the provider report an error.
  expect(problems.splice(0)).toEqual([]);
});
afterAll(() => deleteNatsStreams(natsUrl, prefix));

/** A provider (another connection each time) with the topics' streams and consumers in place. */
async function instance(topics: readonly (string | TopicSpec)[], subscriptions: readonly SubscriptionSpec[], warn: Warn = () => {}): Promise<PubSubProvider> {
  const p = natsProvider({
    url: natsUrl,
    streamPrefix: prefix,
    logger: { warn, error: (obj, msg) => void problems.push(`${msg} ${JSON.stringify(obj)}`) },
  });
  open.push(p);
  await p.start(topicSpecs(topics), subscriptions);
  return p;
}

/** The state of a topic's stream, read on a connection of its own. */
async function streamState(topic: string): Promise<{ messages: number; last_seq: number }> {
  const nc = await connect({ servers: natsUrl });
  try {
    return (await (await nc.jetstreamManager()).streams.info(natsNames(prefix).stream(topic))).state;
  } finally {
    await nc.close();
  }
}

pubSubProviderCases("NATS JetStream", { instance, storedMessages: async (topic) => (await streamState(topic)).messages });

describe("NATS JetStream streams", () => {
  test("a topic without subscriptions has a stream that takes each message and drops it at once (interest retention)", async () => {
    const p = await instance(["ignored"], []);
    for (let i = 0; i < 3; i++) expect(await p.publish("ignored", "{}")).toMatch(/^[0-9a-f-]{36}$/);
    const state = await streamState("ignored");
    expect(state.messages).toBe(0);
    expect(state.last_seq).toBe(3); // stored and dropped at once, not refused
  });
});
