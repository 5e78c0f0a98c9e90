import { api } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";
import { outboxRelay } from "./outbox/relay";

export interface OutboxSweepResult {
  /** How many url-shortened events the sweep published. */
  published: number;
}

/**
 * Publishes url-shortened events older than the relay's own window that are still in
 * the outbox. Instances sweep at start and after their own relay failed; this catches
 * the rows of an instance that crashed between commit and publish and never started
 * again. Internal and without parameters: the cron job below calls it.
 *
 * Publishes each such row's event to the url-shortened topic (events.ts), then
 * deletes the row (outbox/relay.ts).
 */
export const sweepOutbox = api({ expose: false }, async (): Promise<OutboxSweepResult> => {
  return { published: await outboxRelay.sweepUntilEmpty() };
});

export const sweepOutboxJob = new CronJob("sweep-outbox", {
  title: "Publish url-shortened events a stopped instance left behind",
  every: "1h",
  endpoint: sweepOutbox,
});
