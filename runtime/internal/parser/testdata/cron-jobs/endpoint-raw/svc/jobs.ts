import { api } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";

export const hook = api.raw({ expose: true, path: "/hook" }, async (_req, resp) => {
  resp.end();
});

export const job = new CronJob("raw-hook", { every: "1h", endpoint: hook });
