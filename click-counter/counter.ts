import log from "encore.dev/log";
import { codeOfKey, internedClickKey } from "./click-keys";
import { addCounts, clicksPerCode, CommitUnknown, sumCounts, totalOf, type ClickWriter, type Counts, type Doubtful } from "./batches";
import { ConsistentReads } from "./consistent-reads";
import type { ClickJournal } from "./journal";
import { outsideRequests } from "./outside-requests";

/** What the counter uses of its journal. */
export type Keeper = Pick<ClickJournal, "path" | "open" | "wantsRewrite" | "append" | "rewrite" | "remove">;

/** How soon a failed write is retried when writes are otherwise immediate, and while stopping. */
const retryDelayMs = 100;
/** How long a stop keeps retrying a write the database refuses before it leaves the clicks in the journal. */
export const defaultStopDeadlineMs = 8000;

/**
 * What an operator wants to watch (the service wires these to metrics): gauges are
 * read from the counter (`pendingClicks`, `lostClicks`), events come through here.
 */
export interface ClickObserver {
  /** A write of counted clicks ended, after `durationMs`; `ok` false when it failed and its clicks were kept. */
  flushed?(durationMs: number, ok: boolean): void;
  /** Answered clicks dropped: their link was deleted, or they could be neither stored nor kept on disk. */
  lost?(clicks: number): void;
}

/** A batch being written: what was already in the journal, and what was not. */
interface InFlight {
  readonly seq: number;
  readonly fresh: Counts;
  readonly kept: Counts;
  /** The codes it holds clicks of. */
  readonly codes: ReadonlySet<string>;
  /** A rewrite of the journal put the fresh part there too, under `seq`. */
  freshKept: boolean;
}

/**
 * Counts clicks in memory and writes them in numbered batches, so a lookup costs no
 * database round trip and a hot code causes no row-lock contention, and every
 * answered click is stored exactly once.
 *
 * - Writes happen at most `intervalMs` after a click; 0 writes before the lookup
 *   is answered. One write runs at a time; each takes every click not yet stored.
 * - Exactly once: each write is one transaction that also records the batch's
 *   number as the writer's last (ClickWriter). A write that fails before its commit
 *   stored nothing, and its clicks go into the next; a write whose commit goes
 *   unanswered is kept as doubtful, and the next write adds it only if the database
 *   does not hold its number.
 * - While writes fail, or one runs for longer than an interval (a database that
 *   stopped answering), what is not stored goes to a journal on local disk,
 *   appended and fsynced every interval, and is retried every interval (at least
 *   100 ms apart); a process that dies meanwhile leaves the journal to be replayed
 *   at the next start (the writer's owner replays it: journal.ts). The journal goes once everything is stored.
 * - A click whose link no longer exists when it is written (deleted) is lost:
 *   counted in `lostClicks` and logged, never dropped silently.
 * - `stop()` writes everything and switches to writing each click before answering;
 *   while the database refuses, it retries every 100 ms (a ref'd timer keeps the
 *   process up) until the stop deadline, then leaves what is unwritten in the journal.
 *
 * Exact reads of stored + pending without a lock: `consistentRead` (consistent-reads.ts),
 * which each write tells when it takes its batch and when the batch is stored or put back.
 */
export class ClickCounter {
  /** Clicks counted and in no batch or journal record yet. */
  #fresh: Counts = new Map();
  #freshTotal = 0;
  /** Clicks known not stored whose write failed, each in the journal when it opened. */
  #kept: Counts = new Map();
  #keptTotal = 0;
  /** Clicks per code in #fresh and #kept (their keys carry details too): what `pending` answers. */
  #pendingByCode: Counts = new Map();
  /** Batches whose commit went unanswered, oldest first. */
  #doubtful: Doubtful[] = [];
  /** The codes #doubtful holds clicks of. */
  #doubtfulCodes = new Set<string>();
  /** The batch being written, while a write runs. */
  #inFlight: InFlight | undefined;
  /** The number the next batch gets; a journal record carries the number of the batch its clicks go into. */
  #seq = 1;
  #lostTotal = 0;
  #timer: NodeJS.Timeout | undefined;
  #synchronous: boolean;
  /** Tail of the chain of writes: one runs at a time. */
  #writes: Promise<unknown> = Promise.resolve();
  readonly #reads = new ConsistentReads(() => this.#doubtful.length > 0, retryDelayMs);
  /** Writes failed in a row. */
  #failures = 0;
  /** A journal write failed: the next one rewrites it whole from what is unwritten. */
  #journalStale = false;
  /** Set by stop(): when retrying ends and what is unwritten is left in the journal. */
  #stopDeadline: number | undefined;
  #deadlineTimer: NodeJS.Timeout | undefined;
  #observers = new Set<ClickObserver>();

  constructor(
    private readonly write: ClickWriter,
    private readonly intervalMs: number,
    private readonly journal?: Keeper,
  ) {
    this.#synchronous = intervalMs === 0;
  }

  /** Calls `observer` on each event from now on; returns what stops it. */
  observe(observer: ClickObserver): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /** Clicks counted and not known to be stored, over all codes. */
  get pendingClicks(): number {
    let total = this.#freshTotal + this.#keptTotal;
    if (this.#inFlight) total += totalOf(this.#inFlight.fresh) + totalOf(this.#inFlight.kept);
    for (const d of this.#doubtful) total += totalOf(d.counts);
    return total;
  }

  /** Answered clicks that could not be stored, since start. */
  get lostClicks(): number {
    return this.#lostTotal;
  }

  /**
   * Counts one click of `code`, with what its link's analytics record of it
   * (`details`, visitors/describe.ts; none: unknown). Returns a promise only
   * when the click is written before answering; it never rejects: a click that cannot
   * be written is kept for a retry.
   */
  record(code: string, details?: string): Promise<void> | undefined {
    const key = details === undefined ? code : internedClickKey(code, details);
    this.#fresh.set(key, (this.#fresh.get(key) ?? 0) + 1);
    this.#freshTotal++;
    this.#pendingByCode.set(code, (this.#pendingByCode.get(code) ?? 0) + 1);
    if (!this.#synchronous) {
      this.schedule(this.intervalMs);
      return undefined;
    }
    // A write still running keeps its successors waiting: the timer keeps their clicks on disk meanwhile.
    if (this.#inFlight) this.schedule(retryDelayMs);
    return this.flush();
  }

  /**
   * Clicks counted but not yet written, for one code; excludes a batch being
   * written, so add it to stored counts only inside `consistentRead`.
   */
  pending(code: string): number {
    return this.#pendingByCode.get(code) ?? 0;
  }

  /**
   * Whether a code has clicks not known to be stored: pending, being written, or in
   * a batch whose commit went unanswered. The cleanup job spares such codes.
   */
  hasPending(code: string): boolean {
    return this.#pendingByCode.has(code) || this.#inFlight?.codes.has(code) === true || this.#doubtfulCodes.has(code);
  }

  /**
   * Runs `read` until it ran while no write was in progress or began, and returns
   * its result: `read` must query the stored counts and then add `pending()` with
   * no await in between. Throws 503 `unavailable` when a write in progress, or an
   * unanswered commit, is not settled within 2 s.
   */
  consistentRead<T>(read: () => Promise<T>): Promise<T> {
    return this.#reads.run(read);
  }

  /** Writes everything counted so far (or, failing that, keeps it for a retry). */
  flush(): Promise<void> {
    return this.serially(() => this.writeUnwritten());
  }

  /**
   * Writes everything, then writes each further click as it happens. While the
   * database refuses, retries until `deadlineMs` from now, then leaves what is
   * unwritten in the journal for the next start.
   */
  stop(deadlineMs = defaultStopDeadlineMs): Promise<void> {
    this.#synchronous = true;
    this.#stopDeadline = Date.now() + deadlineMs;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    // Unref'd: it matters only while a write is still running, and that keeps the process up.
    this.#deadlineTimer = setTimeout(() => void this.abandon(), deadlineMs).unref();
    return this.flush();
  }

  private schedule(delayMs: number): void {
    if (this.#timer || !this.hasUnwritten() || this.pastStopDeadline()) return;
    // Not as part of the request whose click armed it: the write is every request's (outside-requests.ts).
    this.#timer = outsideRequests(() =>
      setTimeout(() => {
        this.#timer = undefined;
        this.tick();
      }, delayMs),
    );
    // Pending clicks alone never keep the process alive, except during a stop:
    // then the retries are what keeps them from being lost.
    if (this.#stopDeadline === undefined) this.#timer.unref();
  }

  /** An interval has passed with clicks unwritten: write them, or keep them on disk while a write is stuck. */
  private tick(): void {
    if (!this.#inFlight) {
      void this.flush();
      return;
    }
    void this.keepFresh().finally(() => this.schedule(retryDelayMs));
  }

  private hasUnwritten(): boolean {
    return this.#fresh.size > 0 || this.#kept.size > 0 || this.#doubtful.length > 0;
  }

  private async writeUnwritten(): Promise<void> {
    await this.#reads.writeMayStart();
    if (!this.hasUnwritten()) return;
    if (this.journal?.open) await this.keepFresh(); // a database in trouble: on disk before each try
    const codes = new Set(this.#pendingByCode.keys());
    const batch: InFlight = { seq: this.#seq++, fresh: this.#fresh, kept: this.#kept, codes, freshKept: false };
    this.#fresh = new Map();
    this.#kept = new Map();
    this.#pendingByCode = new Map();
    this.#freshTotal = this.#keptTotal = 0;
    this.#reads.writeStarted();
    this.#inFlight = batch;
    const started = performance.now();
    let failure: unknown;
    try {
      const counts = sumCounts(batch.fresh, batch.kept);
      const written = await this.write(counts, batch.seq, this.#doubtful);
      this.#doubtful = [];
      this.#doubtfulCodes.clear();
      this.countMissing(written.applied, written.found);
    } catch (err) {
      failure = err;
      if (err instanceof CommitUnknown) {
        this.#doubtful.push({ seq: batch.seq, counts: sumCounts(batch.fresh, batch.kept) });
        for (const code of batch.codes) this.#doubtfulCodes.add(code);
      } else {
        const back = sumCounts(batch.kept, batch.fresh);
        this.#keptTotal += addCounts(this.#kept, back);
        addCounts(this.#pendingByCode, clicksPerCode(back));
      }
    } finally {
      this.#inFlight = undefined;
      this.#reads.writeEnded();
      const durationMs = performance.now() - started;
      for (const o of this.#observers) o.flushed?.(durationMs, failure === undefined);
    }
    if (failure === undefined) return this.succeeded();
    // What this batch held that was not on disk yet goes there under its number, which
    // is right whether it is stored later by a retry or, unknown to us, already was.
    if (!batch.freshKept) await this.keep(batch.seq, batch.fresh);
    await this.failed(failure);
  }

  /** Moves fresh clicks into the journal (open or not: keeping is what opens it). */
  private async keepFresh(): Promise<void> {
    if (this.#fresh.size === 0) return;
    const seq = this.#seq;
    const fresh = this.#fresh;
    this.#fresh = new Map();
    this.#freshTotal = 0;
    this.#keptTotal += addCounts(this.#kept, fresh);
    await this.keep(seq, fresh);
  }

  /** Puts `counts` in the journal as part of batch `seq`; when that fails, tries a whole rewrite next time. */
  private async keep(seq: number, counts: ReadonlyMap<string, number>): Promise<void> {
    if (!this.journal || (counts.size === 0 && !this.#journalStale)) return;
    try {
      if (this.#journalStale || this.journal.wantsRewrite) await this.journal.rewrite(this.takeAllForJournal());
      else await this.journal.append(seq, counts);
      this.#journalStale = false;
    } catch (err) {
      if (!this.#journalStale) log.error(err, "the click journal could not be written: unwritten clicks are in memory only", { path: this.journal.path });
      this.#journalStale = true;
    }
  }

  /**
   * Every click not known to be stored, as journal records, each under the number of
   * the batch it may be stored with; fresh clicks become kept ones.
   */
  private takeAllForJournal(): Doubtful[] {
    const records: Doubtful[] = [...this.#doubtful];
    if (this.#inFlight) {
      records.push({ seq: this.#inFlight.seq, counts: sumCounts(this.#inFlight.fresh, this.#inFlight.kept) });
      this.#inFlight.freshKept = true;
    }
    // Kept and fresh clicks go into the next batch, numbered #seq.
    records.push({ seq: this.#seq, counts: sumCounts(this.#kept, this.#fresh) });
    this.#keptTotal += addCounts(this.#kept, this.#fresh);
    this.#fresh = new Map();
    this.#freshTotal = 0;
    return records.filter((r) => r.counts.size > 0);
  }

  /** Counts as lost the clicks of codes the write found no row for. */
  private countMissing(applied: ReadonlyMap<string, number>, found: ReadonlySet<string>): void {
    let clicks = 0;
    const missing = new Set<string>();
    for (const [key, n] of applied) {
      const code = codeOfKey(key);
      if (found.has(code)) continue;
      clicks += n;
      missing.add(code);
    }
    const codes = missing.size;
    this.lose(clicks, `${clicks} clicks lost: their links were deleted before the clicks were written`, { codes });
  }

  private async failed(err: unknown): Promise<void> {
    if (this.#failures++ === 0) {
      log.warn(err, "writing clicks failed; keeping them (on disk, in the click journal) and retrying until a write succeeds", {
        journal: this.journal?.path,
      });
    }
    if (this.pastStopDeadline()) return this.abandon();
    this.schedule(this.#stopDeadline === undefined ? Math.max(this.intervalMs, retryDelayMs) : retryDelayMs);
  }

  private async succeeded(): Promise<void> {
    if (this.#failures > 0) log.info("writing clicks works again", { failedAttempts: this.#failures });
    this.#failures = 0;
    // Everything the journal held was in this write: it is stored.
    if (this.journal?.open && this.#kept.size === 0 && this.#doubtful.length === 0) {
      await this.journal.remove().catch((err: unknown) => log.warn(err, "removing the click journal failed", { path: this.journal!.path }));
    }
    this.schedule(this.intervalMs);
  }

  private pastStopDeadline(): boolean {
    return this.#stopDeadline !== undefined && Date.now() >= this.#stopDeadline;
  }

  /**
   * The stop deadline has passed with clicks unwritten: they stay in the journal, for
   * the next start to store, and retrying ends. A write still running may yet store
   * its batch: the journal has it under its number, so it is not stored twice.
   */
  private async abandon(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    clearTimeout(this.#deadlineTimer);
    const unwritten = this.pendingClicks;
    if (unwritten === 0) return;
    if (this.journal) {
      try {
        await this.journal.rewrite(this.takeAllForJournal()); // in-flight batch included
        log.warn(
          `${unwritten} clicks left in the click journal: the database could not be written before the stop deadline; the next start stores them`,
          { clicks: unwritten, path: this.journal.path },
        );
        return;
      } catch (err) {
        log.error(err, "the click journal could not be written", { path: this.journal.path });
      }
    }
    this.#fresh = new Map();
    this.#kept = new Map();
    this.#pendingByCode = new Map();
    this.#doubtful = [];
    this.#doubtfulCodes.clear();
    this.#freshTotal = this.#keptTotal = 0;
    this.lose(unwritten, `${unwritten} clicks lost: the database could not be written before the stop deadline`, {});
  }

  private lose(clicks: number, message: string, fields: Record<string, unknown>): void {
    if (clicks === 0) return;
    this.#lostTotal += clicks;
    log.error(message, { clicks, ...fields });
    for (const o of this.#observers) o.lost?.(clicks);
  }

  /** Runs writes one at a time; the promise never rejects (a failed write keeps its clicks). */
  private serially(work: () => Promise<void>): Promise<void> {
    const run = this.#writes.then(work, work).catch((err: unknown) => log.error(err, "writing clicks failed unexpectedly"));
    this.#writes = run;
    return run;
  }
}
