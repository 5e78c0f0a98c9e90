/** What recv() rejects with once a stream has ended and every message it got was read. */
export class StreamClosedError extends Error {
  constructor() {
    super("the stream is closed");
    this.name = "StreamClosedError";
  }
}

interface Waiter<T> {
  readonly resolve: (item: T) => void;
  readonly reject: (err: Error) => void;
}

/**
 * Messages that arrived and were not read yet. After end(), what is buffered is still
 * handed out, in order; then every read rejects with StreamClosedError, as Encore's
 * recv() does once the socket's receive channel is closed.
 */
export class MessageQueue<T> {
  readonly #items: T[] = [];
  readonly #waiting: Waiter<T>[] = [];
  #ended = false;

  get ended(): boolean {
    return this.#ended;
  }

  push(item: T): void {
    if (this.#ended) return;
    const waiter = this.#waiting.shift();
    if (waiter) waiter.resolve(item);
    else this.#items.push(item);
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const waiter of this.#waiting.splice(0)) waiter.reject(new StreamClosedError());
  }

  next(): Promise<T> {
    if (this.#items.length > 0) return Promise.resolve(this.#items.shift()!);
    if (this.#ended) return Promise.reject(new StreamClosedError());
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }
}
