import { randomUUID } from "node:crypto";
import { afterAll, expect, test } from "vitest";
import { deleteNatsStreams, natsProvider } from "./nats-provider.ts";
import type { Delivery } from "./provider.ts";
import { subscriptionSpec } from "./specs.ts";
import { killMidDelivery, waitFor } from "./testdata/crash.ts";

const url = process.env.TEST_NATS_URL?.trim();
if (!url) throw new Error("TEST_NATS_URL is not set: this test needs nats-server with JetStream");
const natsUrl: string = url;
const prefix = `crash_${randomUUID().slice(0, 8)}`;

afterAll(() => deleteNatsStreams(natsUrl, prefix));

test("a process killed mid-delivery: NATS delivers the message again after restart, once", async () => {
  const firstId = await killMidDelivery({ NATS_SERVER: natsUrl, NATS_STREAM_PREFIX: prefix });
  const spec = subscriptionSpec("events", "counter", { ackDeadline: "1s" });
  const provider = natsProvider({ url: natsUrl, streamPrefix: prefix, logger: { warn: () => {}, error: () => {} } });
  const seen: Delivery[] = [];
  try {
    await provider.start([{ name: "events", deliveryGuarantee: "at-least-once" }], [spec]);
    provider.subscribe(spec, async (d) => void seen.push(d));
    await waitFor(() => seen.length > 0, 10_000);
    await new Promise((r) => setTimeout(r, 1500)); // past another ack deadline: acknowledged, not redelivered
    expect(seen.map((d) => [d.messageId, d.attempt])).toEqual([[firstId, 2]]);
  } finally {
    await provider.close(1000);
  }
}, 30_000);
