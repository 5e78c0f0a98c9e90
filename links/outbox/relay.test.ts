import { expect, test } from "vitest";
import { db } from "../db";
import { outboxRelay } from "./relay";

const outboxSize = async () => (await db.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM url_shortened_outbox`)!.n;

test("a sweep after an outage publishes the whole backlog, batch after batch, not one batch of 500 per 5 s interval", async () => {
  // 1,234 events left behind while pub/sub was away: older than the sweep's age, like an outage's.
  await db.exec`
    INSERT INTO url_shortened_outbox (code, original_url, created_at)
    SELECT 'bk' || lpad(i::text, 4, '0'), 'https://backlog.example/' || i, now() - interval '1 minute'
    FROM generate_series(1, 1234) AS i`;
  const started = Date.now();
  await outboxRelay.sweepAll();
  while ((await outboxSize()) > 0 && Date.now() - started < 4000) await new Promise((r) => setTimeout(r, 50));
  expect(await outboxSize()).toBe(0);
  expect(Date.now() - started).toBeLessThan(4000); // within one interval: three batches at one a sweep would take 10 s
});
