import { CronJob } from "encore.dev/cron";
import { tick } from "./svc/jobs";

export const job = new CronJob("stray", { every: "1h", endpoint: tick });
