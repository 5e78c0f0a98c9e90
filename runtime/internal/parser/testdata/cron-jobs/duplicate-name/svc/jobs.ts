import { api } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";

export const tick = api({}, async (): Promise<void> => {});

export const first = new CronJob("nightly", { schedule: "0 3 * * *", endpoint: tick });
