import log from "encore.dev/log";
import { db } from "../db";
import { urlShortened } from "../events";
import { outboxLagSeconds, outboxRows } from "../metrics";

export interface OutboxRow {
  id: number;
  code: string;
  original_url: string;
  created_at: Date;
}

/** Rows younger than this are left to the relay of the request that wrote them. */
const sweepAgeSeconds = 10;
/** After a relay failed: once its rows are old enough for a sweep to take them. */
const sweepAfterFailureMs = (sweepAgeSeconds + 1) * 1000;
/** While a sweep leaves rows behind (pub/sub still away, or rows too young to take). */
const sweepAgainMs = 5_000;
const sweepBatch = 500;

/**
 * Moves url-shortened events from the outbox table to the topic. Each batch of
 * stored rows is published right after its commit; a sweep publishes what that
 * missed. Publishing happens before the row is deleted, so an event can be
 * published twice (a crash or a failed delete in between) but never lost; every
 * publication of a row carries the same `eventId`, by which consumers count it once.
 *
 * Sweeps run only when there can be something to sweep, so an idle instance does
 * no work: at start (rows a stopped process left), after a relay failed (pub/sub or
 * the database away), again every 5 s while a sweep leaves rows behind, and hourly
 * from the `sweep-outbox` cron job (rows of an instance that crashed and never
 * came back, found by whichever instance runs the job).
 */
class OutboxRelay {
  #sweeping = false;
  #next: NodeJS.Timeout | undefined;

  /** Publishes freshly committed rows, without holding up the requests that wrote them. */
  relay(rows: readonly OutboxRow[]): void {
    if (rows.length === 0) return;
    void this.publishAndDelete(rows).catch((err: unknown) => {
      log.warn(err, "publishing url-shortened events failed; the outbox sweep retries", { rows: rows.length });
      this.sweepIn(sweepAfterFailureMs);
    });
  }

  /** Arms one sweep `ms` from now, unless one is armed already. */
  sweepIn(ms: number): void {
    if (this.#next !== undefined) return;
    this.#next = setTimeout(() => {
      this.#next = undefined;
      this.sweepUntilEmpty().catch((err: unknown) => log.warn(err, "outbox sweep failed; trying again", { inMs: sweepAgainMs }));
    }, ms);
    this.#next.unref(); // a pending sweep never keeps the process alive by itself
  }

  /**
   * Sweeps the whole backlog and arms the next sweep while anything is left (or the
   * sweep failed). The outbox gauges are set before, so they show the backlog while
   * pub/sub is away, and after. Resolves with the rows published.
   */
  async sweepUntilEmpty(): Promise<number> {
    try {
      await this.measure();
      const published = await this.sweepAll();
      if ((await this.measure()) > 0) this.sweepIn(sweepAgainMs);
      return published;
    } catch (err) {
      this.sweepIn(sweepAgainMs);
      throw err;
    }
  }

  /** Publishes rows older than the sweep age; instances skip rows another one holds. */
  async sweep(): Promise<number> {
    if (this.#sweeping) return 0;
    this.#sweeping = true;
    try {
      await using tx = await db.begin();
      const rows = await tx.queryAll<OutboxRow>`
        SELECT id, code, original_url, created_at FROM url_shortened_outbox
        WHERE created_at < now() - ${sweepAgeSeconds} * interval '1 second'
        ORDER BY id LIMIT ${sweepBatch}
        FOR UPDATE SKIP LOCKED`;
      await this.publishAll(rows);
      await tx.exec`DELETE FROM url_shortened_outbox WHERE id = ANY(${rows.map((r) => r.id)}::bigint[])`;
      await tx.commit();
      return rows.length;
    } finally {
      this.#sweeping = false;
    }
  }

  /**
   * Sweeps batch after batch while they come back full: after pub/sub was away, the
   * backlog (every shorten of the outage) goes out as fast as the broker takes it,
   * not one batch per interval. Resolves with the rows published.
   */
  async sweepAll(): Promise<number> {
    let total = 0;
    for (;;) {
      const published = await this.sweep();
      total += published;
      if (published < sweepBatch) return total;
    }
  }

  /** Sets the outbox gauges and resolves with the rows left: one aggregate over a table that stays small while pub/sub keeps up. */
  private async measure(): Promise<number> {
    const row = await db.queryRow<{ rows: number; lag: number }>`
      SELECT count(*)::int AS rows, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS lag
      FROM url_shortened_outbox`;
    outboxRows.set(row!.rows);
    outboxLagSeconds.set(row!.lag);
    return row!.rows;
  }

  private async publishAndDelete(rows: readonly OutboxRow[]): Promise<void> {
    await this.publishAll(rows);
    await db.exec`DELETE FROM url_shortened_outbox WHERE id = ANY(${rows.map((r) => r.id)}::bigint[])`;
  }

  private async publishAll(rows: readonly OutboxRow[]): Promise<void> {
    await Promise.all(
      rows.map((r) =>
        urlShortened.publish({ code: r.code, originalUrl: r.original_url, timestamp: r.created_at, eventId: eventIdOf(r) }),
      ),
    );
  }
}

/**
 * The row's id names its event. The code is added because ids are not unique for
 * ever: a url database restored from a backup, or re-created, issues them again while
 * analytics still holds the keys it counted, and a new link must not be taken for
 * one counted before. With the random code too, that takes the same id and code.
 */
export function eventIdOf(row: Pick<OutboxRow, "id" | "code">): string {
  return `${row.id}-${row.code}`;
}

export const outboxRelay = new OutboxRelay();

/** Starts the relay's work of the service's start: sweeping the rows a stopped process left behind, this instance's or another's. */
export function startOutboxRelay(): void {
  outboxRelay.sweepIn(0);
}
