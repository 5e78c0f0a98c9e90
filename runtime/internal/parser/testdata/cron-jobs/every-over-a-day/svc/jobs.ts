import { api } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";

export const tick = api({}, async (): Promise<void> => {});

export const job = new CronJob("every-over-a-day", { every: "25h", endpoint: tick });
