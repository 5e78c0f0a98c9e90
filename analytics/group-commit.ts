/**
 * Writes items in batches: items added while a batch is being written wait and go
 * together in the next one, so under load many callers share one transaction and
 * alone an item is written at once, with no added delay. One batch is written at
 * a time. Each caller is answered only after its batch is written: with the
 * batch's result for its item, or with the batch's error (a failed batch fails
 * every caller in it).
 */
export class GroupCommit<T, R> {
  #queue: { item: T; done: (result: R) => void; fail: (err: unknown) => void }[] = [];
  #writing = false;

  /**
   * @param write writes a batch, all or nothing, and returns one result per item, in order.
   * @param maxBatch most items per batch, to keep each statement and its parameters small.
   */
  constructor(
    private readonly write: (batch: readonly T[]) => Promise<readonly R[]>,
    private readonly maxBatch = 500,
  ) {}

  /** Resolves with the item's result once its batch is written; rejects with the batch's error. */
  add(item: T): Promise<R> {
    return new Promise((done, fail) => {
      this.#queue.push({ item, done, fail });
      if (!this.#writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.#writing = true;
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.maxBatch);
      try {
        const results = await this.write(batch.map((q) => q.item));
        batch.forEach((q, i) => q.done(results[i]!));
      } catch (err) {
        for (const q of batch) q.fail(err ?? new Error("writing a batch failed"));
      }
    }
    this.#writing = false;
  }
}
