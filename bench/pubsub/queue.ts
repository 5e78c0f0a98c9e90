/** What the bench publishes: `n` numbers the messages of a run from 0. */
export interface BenchMessage {
  readonly n: number;
  /** When it was made (ISO), for the counting handler's day. */
  readonly at: string;
}

/** A queue under test, as the bench drives it: the same calls for our SQL provider and for Graphile Worker. */
export interface QueueUnderTest {
  readonly name: string;
  /** Stores the messages before any consumer runs, the system's fastest way. */
  preload(payloads: readonly string[]): Promise<void>;
  /** Publishes one message through the system's one-message call, resolving once it is stored. */
  publish(payload: string): Promise<void>;
  /** Starts handling messages, at most the run's concurrency at once, each as an app's handler gets it: parsed. */
  consume(handler: (message: BenchMessage) => Promise<void>): Promise<void>;
  /** Messages still stored (neither acknowledged nor deleted). */
  stored(): Promise<number>;
  close(): Promise<void>;
}
