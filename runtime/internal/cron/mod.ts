import { callEndpoint } from "../calls/api-call.ts";
import { rootLogger } from "../log/root.ts";
import { appMeta } from "../meta/load.ts";
import type { CronJobMeta } from "../meta/types.ts";
import { openDatabase } from "../sql/databases.ts";
import { CronStore } from "./run-store.ts";
import { CronScheduler } from "./scheduler.ts";
import { cronDatabaseName } from "./schema.ts";

/** A run whose heartbeat (every 10 s) is this old died with its instance. */
const staleAfterMs = 60_000;

let scheduler: Promise<CronScheduler<CronJobMeta>> | undefined;

/** The app's cron jobs with their bookkeeping, ready to run (not yet scheduling). */
export function cronScheduler(): Promise<CronScheduler<CronJobMeta>> {
  scheduler ??= (async () => {
    const store = new CronStore(await openDatabase(cronDatabaseName), { staleAfterMs });
    await store.migrate();
    return new CronScheduler({
      jobs: appMeta().cronJobs,
      store,
      // The same in-process call as ~encore/clients, so internal endpoints are reachable;
      // anonymous, whatever started the scheduler or the manual run.
      runJob: (job) => callEndpoint(job.endpoint.service, job.endpoint.name, undefined, { authData: null }),
      log: rootLogger().child({ component: "cron" }),
    });
  })();
  scheduler.catch(() => (scheduler = undefined)); // a failed open is tried again next time
  return scheduler;
}

/** Whether the app declares any cron job. */
export function hasCronJobs(): boolean {
  return appMeta().cronJobs.length > 0;
}

/** Runs the app's jobs at their ticks. */
export async function startCron(): Promise<void> {
  await (await cronScheduler()).start();
}

/** Stops scheduling, letting runs in progress finish for up to `graceMs`. */
export async function stopCron(graceMs: number): Promise<void> {
  const s = scheduler;
  scheduler = undefined;
  if (s) await (await s.catch(() => undefined))?.stop(graceMs);
}

export { CronStore } from "./run-store.ts";
export type { RunRecord } from "./run-store.ts";
export type { TickResult } from "./scheduler.ts";
