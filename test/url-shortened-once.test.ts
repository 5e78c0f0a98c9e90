// url-shortened events are counted once per stored URL, through the SQL pub/sub provider:
// a second publication of the same event (the outbox relay's re-publish after a failed
// delete) is a new message with a new id, and must not count again.
import log from "encore.dev/log";
import { Subscription } from "encore.dev/pubsub";
import { afterEach, expect, test, vi } from "vitest";
import { db as analyticsDb } from "../analytics/db.ts";
import "../analytics/track.ts"; // the track-analytics subscription under test
import { pubsubDatabaseName } from "../runtime/internal/pubsub/sql-schema.ts";
import { openDatabase } from "../runtime/internal/sql/databases.ts";
import { db as urlDb } from "../url/db.ts";
import { urlShortened, type UrlShortened } from "../links/events.ts";
import { eventIdOf, outboxRelay, type OutboxRow } from "../links/outbox/relay.ts";

// A second subscriber of the topic, to see every message published.
const published: UrlShortened[] = [];
new Subscription(urlShortened, "test-url-shortened-copies", {
  handler: async (event) => {
    published.push(event);
  },
});

const copiesOf = (eventId: string) => published.filter((e) => e.eventId === eventId).length;

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until track-analytics has handled every message published so far (none left to deliver). */
async function trackAnalyticsIdle(): Promise<void> {
  const pubsub = await openDatabase(pubsubDatabaseName);
  await until(async () => {
    const [row] = await pubsub.query("SELECT count(*)::int AS n FROM pubsub_delivery WHERE subscription = 'track-analytics'", []);
    return row!.n === 0;
  }, "track-analytics to handle every message");
}

const countedOn = async (date: string) =>
  (await analyticsDb.queryRow<{ n: number }>`SELECT coalesce(sum(urls_created), 0)::int AS n FROM daily_stats WHERE date = ${date}::date`)!.n;

const countedInAll = async () =>
  (await analyticsDb.queryRow<{ n: number }>`SELECT coalesce(sum(urls_created), 0)::int AS n FROM daily_stats`)!.n;

afterEach(async () => {
  await urlDb.exec`DROP TRIGGER IF EXISTS refuse_delete ON url_shortened_outbox`;
});

test("the same event published twice, as two messages, counts once", async () => {
  const event = { code: "twice1", originalUrl: "https://twice.example", timestamp: new Date("2019-05-05T12:00:00Z"), eventId: "1-twice1" };
  await urlShortened.publish(event);
  await urlShortened.publish(event);
  await until(() => copiesOf(event.eventId) === 2, "both messages delivered");
  await trackAnalyticsIdle();
  expect(await countedOn("2019-05-05")).toBe(1);
});

test("an outbox row published again by the sweep after its delete failed counts once", async () => {
  const before = await countedInAll();
  // The delete after publishing fails, as when the database goes away between the two.
  await urlDb.exec`
    CREATE OR REPLACE FUNCTION refuse_delete() RETURNS trigger LANGUAGE plpgsql
    AS $$ BEGIN RAISE EXCEPTION 'delete refused by the test'; END $$`;
  await urlDb.exec`
    CREATE TRIGGER refuse_delete BEFORE DELETE ON url_shortened_outbox
    FOR EACH ROW EXECUTE FUNCTION refuse_delete()`;
  const rows = await urlDb.queryAll<OutboxRow>`
    INSERT INTO url_shortened_outbox (code, original_url, created_at) VALUES ('again1', 'https://again.example', now())
    RETURNING id, code, original_url, created_at`;
  const eventId = eventIdOf(rows[0]!);
  const warn = vi.spyOn(log, "warn");
  try {
    outboxRelay.relay(rows);
    const failedDelete = () =>
      warn.mock.calls.some((args: unknown[]) => String(args[1]).startsWith("publishing url-shortened events failed"));
    await until(failedDelete, "the failed delete");
  } finally {
    warn.mockRestore();
  }
  expect(copiesOf(eventId)).toBeLessThanOrEqual(1); // published once so far (perhaps not yet delivered)

  // The database answers again; the row is past the sweep's age, so the sweep publishes it again.
  await urlDb.exec`DROP TRIGGER refuse_delete ON url_shortened_outbox`;
  await urlDb.exec`UPDATE url_shortened_outbox SET created_at = created_at - interval '1 minute' WHERE code = 'again1'`;
  await outboxRelay.sweep(); // or the sweep its failed relay armed, if that runs first: either publishes it
  await until(async () => (await urlDb.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM url_shortened_outbox`)!.n === 0, "the outbox emptied");
  await until(() => copiesOf(eventId) >= 2, "the second publication delivered");
  await trackAnalyticsIdle();
  expect(await countedInAll()).toBe(before + 1);
  const keys = await analyticsDb.queryAll<{ event_key: string }>`SELECT event_key FROM processed_events WHERE event_key = ${eventId}`;
  expect(keys).toHaveLength(1);
}, 30_000);
