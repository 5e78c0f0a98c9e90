import { api } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";

export const tick = api({}, async (): Promise<void> => {});

export const job = new CronJob("both", { every: "1h", schedule: "0 * * * *", endpoint: tick });
