import log from "encore.dev/log";
import { db } from "../db";
import { linkEvents, type LinkEvent, type LinkEventType } from "../events";
import type { Subscriber } from "../../pg-notify/listener";

interface EventRow {
  id: number;
  type: LinkEventType;
  workspace_id: string | null;
  data: string;
  created_at: Date;
}

const batchSize = 500;
/** After a failed pass (pub/sub or the database away): the next try. */
const retryMs = 5_000;

/**
 * Moves link events from link_event_outbox (url migration 16) to the link-events topic.
 * Any process that commits a row (a link made, changed or deleted here; a click flush in
 * the url service) fires the `url_link_events` notification at its commit, and this relay,
 * listening, publishes what waits: in a transaction that locks the rows it takes (SKIP
 * LOCKED: instances share the work), publishes them, deletes them, commits. A crash
 * between publishing and the commit leaves the rows to be published again, with the same
 * eventId (the row's id); never lost, never published for a rolled-back change.
 *
 * Idle, it does nothing: it runs when notified, when its listening connection comes back
 * (notifications may have been missed) and every 5 s only while a pass fails.
 */
class LinkEventRelay implements Subscriber {
  #running = false;
  #again = false;
  #retry: NodeJS.Timeout | undefined;

  notified(): void {
    this.kick();
  }

  up(): void {
    this.kick();
  }

  down(): void {}

  /** Publishes every waiting row; a call during a pass runs one more pass after it. */
  kick(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    void this.drain()
      .catch((err: unknown) => {
        log.warn(err, "publishing link events failed; trying again", { inMs: retryMs });
        this.retryLater();
      })
      .finally(() => {
        this.#running = false;
        if (this.#again) {
          this.#again = false;
          this.kick();
        }
      });
  }

  /** Passes until a pass takes less than a full batch; resolves with the events published. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const published = await this.pass();
      total += published;
      if (published < batchSize) return total;
    }
  }

  private async pass(): Promise<number> {
    await using tx = await db.begin();
    const rows = await tx.queryAll<EventRow>`
      SELECT id, type, workspace_id, data::text AS data, created_at FROM link_event_outbox
      ORDER BY id LIMIT ${batchSize}
      FOR UPDATE SKIP LOCKED`;
    if (rows.length === 0) return 0;
    await Promise.all(rows.map((r) => linkEvents.publish(eventOf(r))));
    await tx.exec`DELETE FROM link_event_outbox WHERE id = ANY(${rows.map((r) => r.id)}::bigint[])`;
    await tx.commit();
    return rows.length;
  }

  private retryLater(): void {
    if (this.#retry !== undefined) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.kick();
    }, retryMs);
    this.#retry.unref();
  }
}

function eventOf(row: EventRow): LinkEvent {
  return {
    eventId: `link-event-${row.id}`,
    type: row.type,
    ...(row.workspace_id === null ? {} : { workspaceId: row.workspace_id }),
    data: row.data,
    occurredAt: row.created_at,
  };
}

/** The channel url migration 16's trigger notifies on. */
export const linkEventsChannel = "url_link_events";

export const linkEventRelay = new LinkEventRelay();
