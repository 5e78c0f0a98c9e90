/**
 * Writes items in batches: while one batch is being written, newly added items
 * wait and go together in the next. Under load a few large writes replace many
 * small ones; alone, an item is written at once.
 */
export class GroupCommit<T> {
  #queued: { item: T; done: (err?: unknown) => void }[] = [];
  #writing = false;

  constructor(
    private readonly write: (batch: T[]) => Promise<void>,
    private readonly maxBatch = 500,
  ) {}

  /** Resolves once the item's batch is written; rejects with the batch's error. */
  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queued.push({ item, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!this.#writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.#writing = true;
    while (this.#queued.length > 0) {
      const batch = this.#queued.splice(0, this.maxBatch);
      try {
        await this.write(batch.map((q) => q.item));
        for (const q of batch) q.done();
      } catch (err) {
        for (const q of batch) q.done(err ?? new Error("write failed"));
      }
    }
    this.#writing = false;
  }
}
