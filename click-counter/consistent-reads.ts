import { APIError } from "encore.dev/api";

/** Attempts of a consistent read, the last of which holds writes back: each retry follows a write, and writes are short and rare. */
const maxReadAttempts = 3;
/** Longest a read waits for a write in progress, or an unanswered commit, to be settled. */
const settleWaitMs = 2000;

/**
 * Exact reads of stored + pending clicks without a lock, for one ClickCounter.
 *
 * Stored + pending is exact when no batch was between "taken from pending" and
 * "stored or put back" at any moment of the read, and no commit is unanswered. A
 * write marks both of those moments (`writeStarted`, `writeEnded`) by bumping an
 * epoch, so a read that starts with no write in progress and ends with the epoch
 * unchanged saw every earlier write committed (its SELECT started after their
 * commit) and none of the later ones, while the pending clicks it adds hold every
 * click no write took. Otherwise it waits for that write to end and reads again.
 * The last allowed attempt holds the next write back (`writeMayStart`) until its
 * SELECT ends, so a read always gets through and a write waits for at most one
 * read. Waiting is bounded: past 2 s (a database in trouble) the read answers 503
 * `unavailable`.
 */
export class ConsistentReads {
  /** Bumped when a write takes a batch, and again when the batch is stored or put back. */
  #epoch = 0;
  /** Settles when the write in progress ends; undefined when none is. */
  #writing: Promise<void> | undefined;
  #ended: (() => void) | undefined;
  /** Reads on their last attempt, during which no write may start. */
  #fencing = 0;
  /** Called when the last of them ends, while a write waits for that. */
  #fenceLifted: (() => void) | undefined;

  /**
   * @param commitUnanswered whether a batch's commit went unanswered (the counter's next write settles it).
   * @param recheckMs how soon to look again for such a commit being settled: the counter's soonest retry.
   */
  constructor(
    private readonly commitUnanswered: () => boolean,
    private readonly recheckMs: number,
  ) {}

  /**
   * Runs `read` until it ran while no write was in progress or began, and returns
   * its result: `read` must query the stored counts and then add the counter's
   * `pending()` with no await in between. Throws 503 `unavailable` when a write in
   * progress, or an unanswered commit, is not settled within 2 s.
   */
  async run<T>(read: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + settleWaitMs;
    for (let attempt = 1; attempt < maxReadAttempts; attempt++) {
      // Checked right before the epoch is taken, with no await in between.
      while (!this.quiet) await this.waitForQuiet(deadline);
      const epoch = this.#epoch;
      const result = await read();
      if (epoch === this.#epoch) return result;
    }
    // Writes kept overlapping: the last attempt holds the next write back until it
    // ends, so reads always get through; a write waits at most one read's SELECT.
    // Fenced first: no write may start between the one in progress ending and the read.
    this.#fencing++;
    try {
      while (!this.quiet) await this.waitForQuiet(deadline);
      return await read();
    } finally {
      if (--this.#fencing === 0) this.#fenceLifted?.();
    }
  }

  /** Resolves once no read holds writes back; a write awaits it before taking its batch. */
  async writeMayStart(): Promise<void> {
    while (this.#fencing > 0) await new Promise<void>((resolve) => (this.#fenceLifted = resolve));
    this.#fenceLifted = undefined;
  }

  /** A write took its batch from pending. */
  writeStarted(): void {
    this.#writing = new Promise((resolve) => (this.#ended = resolve));
    this.#epoch++;
  }

  /** The write's batch is stored, or put back into pending. */
  writeEnded(): void {
    this.#epoch++;
    this.#writing = undefined;
    this.#ended?.();
  }

  /** No write in progress and no commit unanswered: stored + pending is exact. */
  private get quiet(): boolean {
    return this.#writing === undefined && !this.commitUnanswered();
  }

  /** Waits for the write in progress to end, or a while for the next one (which settles an unanswered commit); 503 past `deadline`. */
  private async waitForQuiet(deadline: number): Promise<void> {
    const left = deadline - Date.now();
    if (left <= 0) throw APIError.unavailable("click counts are being written; try again");
    await settledWithin(this.#writing, this.#writing ? left : Math.min(this.recheckMs, left));
  }
}

/** Resolves once `work` settles or `ms` have passed, whichever is first, leaving no timer behind. */
async function settledWithin(work: Promise<unknown> | undefined, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  try {
    await Promise.race(work ? [work.then(noop, noop), elapsed] : [elapsed]);
  } finally {
    clearTimeout(timer);
  }
}

function noop(): void {}
