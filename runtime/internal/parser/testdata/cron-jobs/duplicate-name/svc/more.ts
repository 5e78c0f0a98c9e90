import { CronJob } from "encore.dev/cron";
import { tick } from "./jobs";

export const second = new CronJob("nightly", { every: "24h", endpoint: tick });
