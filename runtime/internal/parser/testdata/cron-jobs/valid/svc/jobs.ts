import { CronJob } from "encore.dev/cron";
import { purge } from "./cleanup";
import * as report from "./report";

export const purgeJob = new CronJob("purge-expired", { title: "Purge expired links", every: "1h 30m", endpoint: purge });

export const reportJob = new CronJob("daily-report", { schedule: "0  4 * * 1-5", endpoint: report.daily });
