import log from "encore.dev/log";
import { outsideRequests } from "../../click-counter/outside-requests";

/**
 * When this instance folds the workspaces' recent click rows into their hours: `delayMs`
 * after a flush first adds to them (`due()`), and not otherwise. No timer is armed, and no
 * statement runs, while no flush adds any, so an idle app does nothing, where a fold every few
 * minutes would wake it forever; while clicks come, folds come at most `delayMs` apart, so the
 * rows a read of a workspace sums beside its hours stay those of about `delayMs` of flushes.
 *
 * The fold moves every workspace's rows, whichever instance added them, and is safe to run
 * beside flushes, other folds and the rollup (analytics/workspace-analytics/fold.ts), so each
 * instance arms its own. A `due()` while a fold runs arms the next one when it ends (the fold
 * may have passed the flush's workspace already); a fold that fails is tried again `delayMs`
 * later, its rows being still there. Rows of an instance that stopped before its fold are
 * folded after a flush of any instance, or after the next start (startup/start.ts).
 */
export class FoldTrigger {
  #timer: NodeJS.Timeout | undefined;
  #folding = false;
  #dueAgain = false;

  constructor(
    private readonly delayMs: number,
    private readonly fold: () => Promise<unknown>,
  ) {}

  /** Whether a fold is armed or running. */
  get pending(): boolean {
    return this.#timer !== undefined || this.#folding;
  }

  /** Rows were added to fold: arms the fold `delayMs` from now, unless one is armed or running. */
  due(): void {
    if (this.#folding) {
      this.#dueAgain = true;
      return;
    }
    if (this.#timer !== undefined) return;
    // Not as part of the request whose click's flush armed it (click-counter/outside-requests.ts).
    this.#timer = outsideRequests(() =>
      setTimeout(() => {
        this.#timer = undefined;
        void this.run();
      }, this.delayMs),
    );
    this.#timer.unref(); // an armed fold never keeps the process alive: its rows wait for the next start
  }

  private async run(): Promise<void> {
    this.#folding = true;
    this.#dueAgain = false;
    try {
      await this.fold();
    } catch (err) {
      log.warn(err, "folding workspaces' recent clicks into their hours failed; trying again", { inMs: this.delayMs });
      this.#dueAgain = true;
    } finally {
      this.#folding = false;
    }
    if (this.#dueAgain) this.due();
  }
}
