import { api } from "encore.dev/api";
import { jobsProcessed, ordersProcessed, queueLength } from "./metrics";

export const process = api({ method: "POST", path: "/process" }, async (): Promise<void> => {
  ordersProcessed.increment();
  jobsProcessed.with({ jobType: "email", priority: 1, success: true, region: "eu" }).increment();
  queueLength.set(3);
});
