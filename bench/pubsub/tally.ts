/**
 * What a run's handler saw: how often each message (numbered 0..n-1 in its payload)
 * was handled, so a run can prove nothing was lost and nothing handled twice.
 */
export class Tally {
  readonly #seen: Uint8Array;
  #handled = 0;
  #twice = 0;
  #allHandled!: () => void;
  /** Resolves when every message was handled at least once. */
  readonly done: Promise<void>;

  constructor(readonly messages: number) {
    this.#seen = new Uint8Array(messages);
    this.done = new Promise((resolve) => (this.#allHandled = resolve));
  }

  /** Records one handling of message `n`. */
  handled(n: number): void {
    if (this.#seen[n]! > 0) this.#twice++;
    else if (++this.#handled === this.messages) this.#allHandled();
    this.#seen[n] = Math.min(this.#seen[n]! + 1, 255);
  }

  /** Throws unless every message was handled exactly once. */
  check(system: string): void {
    if (this.#handled !== this.messages || this.#twice > 0) {
      throw new Error(`${system}: ${this.#handled} of ${this.messages} messages handled, ${this.#twice} handled again`);
    }
  }
}
