import { api } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";

export const resend = api({}, async (params: { id: string }): Promise<void> => {});

export const job = new CronJob("resend", { every: "1h", endpoint: resend });
