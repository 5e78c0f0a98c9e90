import { Subscription } from "encore.dev/pubsub";
import { importJobs, type ImportQueued } from "./import-jobs";
import { runImport } from "./jobs/run-import";

/**
 * Runs each queued import (jobs/run-import.ts). One at a time per instance: a job is one
 * batch after another, the links service's inserts are the work, and a running job holds two
 * of the transfers database's connections (its lock, and its batch's transaction). A delivery that finds
 * its job running elsewhere (a redelivery past the ack deadline) fails and comes back after
 * the backoff, until the job is done or its runner has died (its instance gone), when it
 * takes the job over from its recorded progress.
 */
export const runImports = new Subscription(importJobs, "run-imports", {
  handler: async ({ importId }: ImportQueued): Promise<void> => runImport(importId),
  maxConcurrency: 1,
  retryPolicy: { minBackoff: "15s", maxBackoff: "1m", maxRetries: 1000 },
});
