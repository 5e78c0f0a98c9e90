import { CronJob } from "encore.dev/cron";

export const tick = async (): Promise<void> => {};

export const job = new CronJob("plain-function", { every: "1h", endpoint: tick });
