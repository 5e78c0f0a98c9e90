import { APIError } from "encore.dev/api";
import log from "encore.dev/log";

/** How soon a failed write is retried when writes are otherwise immediate, and while stopping. */
const retryDelayMs = 100;
/** How long a stop keeps retrying a write the database refuses before it counts the clicks lost. */
export const defaultStopDeadlineMs = 8000;
/** Attempts of a consistent read, the last of which holds flushes back: each retry follows a flush, and flushes are short and rare. */
const maxReadAttempts = 3;
/** Longest a read waits for a flush in progress to end. */
const flushWaitMs = 2000;

/** Adds `counts[i]` clicks to `codes[i]` in one statement; resolves with the codes whose row it found. */
export type ClickWriter = (codes: string[], counts: number[]) => Promise<Iterable<string>>;

/**
 * What an operator wants to watch (the lead wires these to metrics): gauges are
 * read from the counter (`pendingClicks`, `lostClicks`), events come through here.
 */
export interface ClickObserver {
  /** A write of counted clicks ended, after `durationMs`; `ok` false when it failed and its clicks were kept. */
  flushed?(durationMs: number, ok: boolean): void;
  /** Answered clicks dropped: their link was deleted, or the database stayed away past the stop deadline. */
  lost?(clicks: number): void;
}

/**
 * Counts clicks in memory and writes them in batches, so a lookup costs no
 * database round trip and a hot code causes no row-lock contention.
 *
 * - Writes happen at most `intervalMs` after a click; 0 writes every click
 *   before the lookup is answered. Writes run one at a time.
 * - A failed write keeps its counts and tries again at the next interval (at
 *   least every 100 ms), for as long as the database is away; the first failure
 *   and the recovery are logged, not every attempt in between.
 * - A click whose link no longer exists when it is written (the cleanup deleted
 *   it) is lost: counted in `lostClicks` and logged, never dropped silently.
 * - `stop()` writes everything counted and switches to per-click writes, so
 *   lookups still in flight during a shutdown are not lost either; a write that
 *   fails then is retried every 100 ms with a ref'd timer (the process stays up)
 *   until the stop deadline, after which the clicks still unwritten are logged
 *   as lost, with their exact number.
 *
 * Exact reads without a lock (`consistentRead`): stored + pending is exact when
 * no batch was between "taken from pending" and "committed or put back" at any
 * moment of the read. A flush marks both of those moments by bumping `#epoch`,
 * so a read that starts with no flush in progress and ends with the epoch
 * unchanged saw every earlier flush committed (its SELECT started after their
 * commit) and none of the later ones, while the pending map it adds still holds
 * every click no flush took. Otherwise the read may have counted the in-flight
 * batch twice or not at all: it waits for that flush to end and reads again.
 * Retries are rare (a flush is one short statement, at most once per interval);
 * the last allowed attempt holds the next flush back until its SELECT ends, so a
 * read always gets through and a write waits for at most one read. Waiting for
 * a flush in progress is bounded too: past 2 s (a database in trouble) the read
 * answers 503 `unavailable`. Per-click writes (interval 0) never take from
 * pending, so they do not disturb reads: a click being written is not answered
 * yet, and may be seen either way.
 */
export class ClickCounter {
  #pending = new Map<string, number>();
  #pendingTotal = 0;
  #lostTotal = 0;
  #timer: NodeJS.Timeout | undefined;
  #synchronous: boolean;
  /** Tail of the chain of writes: one runs at a time. */
  #writes: Promise<unknown> = Promise.resolve();
  /** Bumped when a flush takes a batch from pending, and again when the batch is committed or put back. */
  #epoch = 0;
  /** Settles when the flush in progress ends; undefined when none is. */
  #flushing: Promise<void> | undefined;
  /** Reads on their last attempt, during which no flush may start. */
  #fencing = 0;
  /** Called when the last of them ends, while a flush waits for that. */
  #fenceLifted: (() => void) | undefined;
  /** Writes failed in a row. */
  #failures = 0;
  /** Set by stop(): when retrying ends and what is still unwritten counts as lost. */
  #stopDeadline: number | undefined;

  constructor(
    private readonly write: ClickWriter,
    private readonly intervalMs: number,
  ) {
    this.#synchronous = intervalMs === 0;
  }

  #observers = new Set<ClickObserver>();

  /** Calls `observer` on each event from now on; returns what stops it. */
  observe(observer: ClickObserver): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /** Clicks counted and not yet written, over all codes. */
  get pendingClicks(): number {
    return this.#pendingTotal;
  }

  /** Answered clicks that could not be stored, since start. */
  get lostClicks(): number {
    return this.#lostTotal;
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
    return this.serially(async () => {
      try {
        this.found(new Map([[code, 1]]), await this.write([code], [1]));
        this.succeeded();
      } catch (err) {
        this.keep(new Map([[code, 1]]), err);
      }
    });
  }

  /**
   * Clicks counted but not yet written, for one code; excludes a batch being
   * written, so add it to stored counts only inside `consistentRead`.
   */
  pending(code: string): number {
    return this.#pending.get(code) ?? 0;
  }

  /**
   * Whether a code has clicks counted but not yet stored, in the pending map or in
   * a write in progress. The cleanup job spares such codes.
   */
  hasPending(code: string): boolean {
    return this.#pending.has(code) || this.#inFlight.has(code);
  }

  #inFlight: ReadonlyMap<string, number> = new Map();

  /**
   * Runs `read` until it ran while no flush was in progress or began, and returns
   * its result: `read` must query the stored counts and then add `pending()` with
   * no await in between. Throws 503 `unavailable` when a flush in progress does not
   * end within 2 s.
   */
  async consistentRead<T>(read: () => Promise<T>): Promise<T> {
    for (let attempt = 1; attempt < maxReadAttempts; attempt++) {
      if (this.#flushing) await this.flushEnded();
      const epoch = this.#epoch;
      const result = await read();
      if (epoch === this.#epoch) return result;
    }
    // Flushes kept overlapping: the last attempt holds the next flush back until it
    // ends, so reads always get through; a flush waits at most one read's SELECT.
    // Fenced first: no flush may start between the one in progress ending and the read.
    this.#fencing++;
    try {
      if (this.#flushing) await this.flushEnded();
      return await read();
    } finally {
      if (--this.#fencing === 0) this.#fenceLifted?.();
    }
  }

  /** Writes everything counted so far. */
  flush(): Promise<void> {
    return this.serially(() => this.writePending());
  }

  /**
   * Writes everything, then writes each further click as it happens. While the
   * database refuses, retries until `deadlineMs` from now, then logs what is lost.
   */
  stop(deadlineMs = defaultStopDeadlineMs): Promise<void> {
    this.#synchronous = true;
    this.#stopDeadline = Date.now() + deadlineMs;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    return this.flush();
  }

  private async flushEnded(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), flushWaitMs)));
    const ended = await Promise.race([this.#flushing!.then(() => false), timedOut]);
    clearTimeout(timer);
    if (ended) throw APIError.unavailable("click counts are being written; try again");
  }

  private add(code: string, n: number): void {
    this.#pending.set(code, (this.#pending.get(code) ?? 0) + n);
    this.#pendingTotal += n;
  }

  private schedule(delayMs: number): void {
    if (this.#timer || this.#pending.size === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, delayMs);
    // Pending clicks alone never keep the process alive, except during a stop:
    // then the retries are what keeps them from being lost.
    if (this.#stopDeadline === undefined) this.#timer.unref();
  }

  private async writePending(): Promise<void> {
    while (this.#fencing > 0) await new Promise<void>((resolve) => (this.#fenceLifted = resolve));
    this.#fenceLifted = undefined;
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    this.#pending = new Map();
    this.#pendingTotal = 0;
    if (this.pastStopDeadline()) return this.giveUp(batch);
    let ended!: () => void;
    this.#flushing = new Promise((resolve) => (ended = resolve));
    this.#inFlight = batch;
    this.#epoch++;
    const started = performance.now();
    let ok = false;
    try {
      this.found(batch, await this.write([...batch.keys()], [...batch.values()]));
      ok = true;
      this.succeeded();
    } catch (err) {
      this.keep(batch, err);
    } finally {
      this.#inFlight = new Map();
      this.#epoch++;
      this.#flushing = undefined;
      ended();
      const durationMs = performance.now() - started;
      for (const o of this.#observers) o.flushed?.(durationMs, ok);
    }
  }

  /** Counts as lost the clicks of codes the write found no row for. */
  private found(batch: ReadonlyMap<string, number>, updated: Iterable<string>): void {
    const found = new Set(updated);
    if (found.size === batch.size) return;
    let clicks = 0;
    let codes = 0;
    for (const [code, n] of batch) {
      if (found.has(code)) continue;
      clicks += n;
      codes++;
    }
    this.lose(clicks, `${clicks} clicks lost: their links were deleted before the clicks were written`, { codes });
  }

  /** Puts unwritten clicks back and retries later; a database outage must not lose them. */
  private keep(batch: ReadonlyMap<string, number>, err: unknown): void {
    if (this.pastStopDeadline()) return this.giveUp(batch, err);
    for (const [code, n] of batch) this.add(code, n);
    if (this.#failures++ === 0) log.warn(err, "writing clicks failed; keeping them and retrying until a write succeeds", { codes: batch.size });
    this.schedule(this.#stopDeadline === undefined ? Math.max(this.intervalMs, retryDelayMs) : retryDelayMs);
  }

  private pastStopDeadline(): boolean {
    return this.#stopDeadline !== undefined && Date.now() >= this.#stopDeadline;
  }

  /** The stop deadline has passed: `batch` and everything still pending are lost. */
  private giveUp(batch: ReadonlyMap<string, number>, err?: unknown): void {
    let clicks = 0;
    for (const n of batch.values()) clicks += n;
    clicks += this.#pendingTotal;
    const codes = new Set([...batch.keys(), ...this.#pending.keys()]).size;
    this.#pending = new Map();
    this.#pendingTotal = 0;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.lose(clicks, `${clicks} clicks lost: the database could not be written before the stop deadline`, { codes }, err);
  }

  private lose(clicks: number, message: string, fields: Record<string, unknown>, err?: unknown): void {
    if (clicks === 0) return;
    this.#lostTotal += clicks;
    if (err === undefined) log.error(message, { clicks, ...fields });
    else log.error(err, message, { clicks, ...fields });
    for (const o of this.#observers) o.lost?.(clicks);
  }

  private succeeded(): void {
    if (this.#failures === 0) return;
    log.info("writing clicks works again", { failedAttempts: this.#failures });
    this.#failures = 0;
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#writes.then(work, work);
    this.#writes = run.catch(() => {});
    return run;
  }
}
