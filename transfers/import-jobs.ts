import { Topic } from "encore.dev/pubsub";

/** An import whose file is stored and whose rows are to be read. */
export interface ImportQueued {
  importId: string;
}

/**
 * Imports waiting for their turn. A delivery runs the job from its recorded progress to the
 * end; one delivered again (after a crash, or a handler past its deadline) finds the rows
 * done so far recorded and goes on after them, or finds the job running and leaves it.
 */
export const importJobs = new Topic<ImportQueued>("import-jobs", { deliveryGuarantee: "at-least-once" });
