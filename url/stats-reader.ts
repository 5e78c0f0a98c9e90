import { APIError } from "encore.dev/api";
import type { ClickCounter } from "./click-counter";
import { db } from "./db";

/** A link as GET /:code/stats shows it, clicks being stored plus pending. */
export interface LinkStats {
  readonly originalUrl: string;
  readonly clicks: number;
  readonly createdAt: Date;
}

interface Waiting {
  readonly code: string;
  readonly done: (stats: LinkStats | undefined) => void;
  readonly fail: (err: unknown) => void;
}

/** Upper bound on codes per SELECT. */
const maxBatch = 500;
/** Upper bound on reads waiting for the next SELECT: past it, a read is refused at once rather than queued. */
export const defaultMaxWaiting = 2000;

/**
 * Reads links' stats with group commit, as UrlStore writes: reads that arrive
 * while a SELECT is running go together in the next `WHERE code = ANY(...)`, so
 * under load one round trip answers many requests, and under none there is no
 * added delay. A read never joins a SELECT that has already started: that SELECT
 * could predate a flush committed after the read arrived, and miss its clicks.
 * Each SELECT runs inside the counter's consistentRead, so stored + pending is
 * exact (see ClickCounter). The queue is bounded: a read past `maxWaiting` gets
 * 503 `unavailable` at once, and the database's slowness never turns into an
 * ever-longer queue in memory.
 */
export class StatsReader {
  #queue: Waiting[] = [];
  #reading = false;

  constructor(
    private readonly counter: ClickCounter,
    private readonly maxWaiting = defaultMaxWaiting,
  ) {}

  /** The code's stats, or undefined when there is no such link. */
  read(code: string): Promise<LinkStats | undefined> {
    if (this.#queue.length >= this.maxWaiting) {
      return Promise.reject(APIError.unavailable("too many stats reads waiting; try again"));
    }
    return new Promise((done, fail) => {
      this.#queue.push({ code, done, fail });
      if (!this.#reading) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.#reading = true;
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, maxBatch);
      try {
        const found = await this.counter.consistentRead(() => this.select(batch));
        for (const w of batch) w.done(found.get(w.code));
      } catch (err) {
        for (const w of batch) w.fail(err);
      }
    }
    this.#reading = false;
  }

  private async select(batch: readonly Waiting[]): Promise<Map<string, LinkStats>> {
    const codes = [...new Set(batch.map((w) => w.code))];
    const rows = await db.queryAll<{ code: string; original_url: string; clicks: number; created_at: Date }>`
      SELECT code, original_url, clicks, created_at FROM urls WHERE code = ANY(${codes}::text[])`;
    // No await from here on: pending is read in the same moment as consistentRead checks.
    return new Map(
      rows.map((r) => [r.code, { originalUrl: r.original_url, clicks: r.clicks + this.counter.pending(r.code), createdAt: r.created_at }]),
    );
  }
}
