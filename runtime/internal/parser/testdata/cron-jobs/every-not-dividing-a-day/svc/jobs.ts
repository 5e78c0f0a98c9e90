import { api } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";

export const tick = api({}, async (): Promise<void> => {});

export const job = new CronJob("every-not-dividing-a-day", { every: "7h", endpoint: tick });
