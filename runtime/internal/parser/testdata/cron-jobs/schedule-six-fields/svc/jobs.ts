import { api } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";

export const tick = api({}, async (): Promise<void> => {});

export const job = new CronJob("schedule-six-fields", { schedule: "0 0 4 * * *", endpoint: tick });
