import log from "encore.dev/log";

/** How soon a failed write is retried when writes are otherwise immediate. */
const retryDelayMs = 100;

/** Adds `counts[i]` clicks to `codes[i]` in one statement. */
export type ClickWriter = (codes: string[], counts: number[]) => Promise<void>;

/**
 * Counts clicks in memory and writes them in batches, so a lookup costs no
 * database round trip and a hot code causes no row-lock contention.
 *
 * - Writes happen at most `intervalMs` after a click; 0 writes every click
 *   before the lookup is answered.
 * - A failed write keeps its counts and tries again at the next interval (at
 *   least every 100 ms), for as long as the database is away; the first failure
 *   and the recovery are logged, not every attempt in between.
 * - `stop()` writes everything counted and switches to per-click writes, so
 *   lookups still in flight during a shutdown are not lost either.
 * - Reads that must include unwritten clicks (stats) run with `whileSettled`, which
 *   excludes concurrent writes: stored + pending is then exact, never double-counted.
 */
export class ClickCounter {
  #pending = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #synchronous: boolean;
  /** Tail of the chain of writes and settled reads: one runs at a time. */
  #lock: Promise<unknown> = Promise.resolve();
  /** Writes failed in a row. */
  #failures = 0;

  constructor(
    private readonly write: ClickWriter,
    private readonly intervalMs: number,
  ) {
    this.#synchronous = intervalMs === 0;
  }

  /**
   * Counts one click. Returns a promise only when the click is written before
   * answering; it never rejects: a click that cannot be written is kept for a retry.
   */
  record(code: string): Promise<void> | undefined {
    if (!this.#synchronous) {
      this.add(code, 1);
      this.schedule(this.intervalMs);
      return undefined;
    }
    return this.exclusive(() => this.write([code], [1])).then(
      () => this.succeeded(),
      (err: unknown) => this.keep(new Map([[code, 1]]), err),
    );
  }

  /** Clicks counted but not yet written, for one code. */
  pending(code: string): number {
    return this.#pending.get(code) ?? 0;
  }

  /**
   * Whether a code has clicks counted but not yet written. The cleanup job skips
   * such codes: their row must still be there when the clicks are written.
   */
  hasPending(code: string): boolean {
    return this.#pending.has(code);
  }

  /** Runs `read` with no write in progress, so stored and pending counts add up exactly. */
  whileSettled<T>(read: () => Promise<T>): Promise<T> {
    return this.exclusive(read);
  }

  /** Writes everything counted so far. */
  flush(): Promise<void> {
    return this.exclusive(() => this.writePending());
  }

  /** Writes everything, then writes each further click as it happens. */
  stop(): Promise<void> {
    this.#synchronous = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    return this.flush();
  }

  private add(code: string, n: number): void {
    this.#pending.set(code, (this.#pending.get(code) ?? 0) + n);
  }

  private schedule(delayMs: number): void {
    if (this.#timer || this.#pending.size === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, delayMs);
    this.#timer.unref(); // pending clicks alone never keep the process alive
  }

  private async writePending(): Promise<void> {
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    this.#pending = new Map();
    try {
      await this.write([...batch.keys()], [...batch.values()]);
    } catch (err) {
      this.keep(batch, err);
      return;
    }
    this.succeeded();
  }

  /** Puts unwritten clicks back and retries later; a database outage must not lose them. */
  private keep(batch: ReadonlyMap<string, number>, err: unknown): void {
    for (const [code, n] of batch) this.add(code, n);
    if (this.#failures++ === 0) log.warn(err, "writing clicks failed; keeping them and retrying until a write succeeds", { codes: batch.size });
    this.schedule(Math.max(this.intervalMs, retryDelayMs));
  }

  private succeeded(): void {
    if (this.#failures === 0) return;
    log.info("writing clicks works again", { failedAttempts: this.#failures });
    this.#failures = 0;
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(work, work);
    this.#lock = run.catch(() => {});
    return run;
  }
}
