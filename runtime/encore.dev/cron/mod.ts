// encore.dev/cron: scheduled jobs. As in Encore, a declaration is inert: the
// generator reads it from the source and the runtime's scheduler runs it.
import type { DurationString } from "../types/mod.ts";

export type CronJobConfig = {
  /** An endpoint that takes no parameters; it is called at each tick. */
  endpoint: () => Promise<unknown>;
  title?: string;
} & ({ every: DurationString } | { schedule: string });

export class CronJob {
  public readonly name: string;
  public readonly cfg: CronJobConfig;

  constructor(name: string, cfg: CronJobConfig) {
    this.name = name;
    this.cfg = cfg;
  }
}
