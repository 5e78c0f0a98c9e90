import type { FastifyInstance } from "fastify";
import { config } from "../config/mod.ts";
import { cronScheduler } from "../cron/mod.ts";
import type { RunRecord } from "../cron/run-store.ts";
import { describeSchedule, nextTick } from "../cron/ticks.ts";
import { APIError } from "../errors/api-error.ts";
import type { AppMeta } from "../meta/types.ts";
import type { CronRun, CronRunResult, CronState } from "./api.ts";

/** Runs shown per job. */
const recentRuns = 20;

/**
 * GET /api/cron: each job, its schedule (UTC), next tick and latest runs from the cron
 * store (scheduled and manual, from every instance).
 * POST /api/cron/:job/run: runs the job now, as `encore-selfhost cron <job>` does (a manual
 * run, claimed in the store, refused while a run is in progress), and answers when it ends.
 */
export function registerCron(app: FastifyInstance, meta: AppMeta): void {
  app.get("/api/cron", async (): Promise<CronState> => {
    const enabled = config().cron;
    const runs = meta.cronJobs.length > 0 ? await (await cronScheduler()).recentRuns(recentRuns) : new Map<string, RunRecord[]>();
    const now = new Date();
    return {
      enabled,
      jobs: meta.cronJobs.map((job) => ({
        name: job.name,
        title: job.title,
        service: job.service,
        endpoint: job.endpoint,
        schedule: describeSchedule(job.schedule),
        nextRun: enabled ? nextTick(job.schedule, now).toISOString() : null,
        lastRuns: (runs.get(job.name) ?? []).map(cronRun),
      })),
    };
  });

  app.post("/api/cron/:job/run", async (req): Promise<CronRunResult> => {
    const { job } = req.params as { job: string };
    if (!meta.cronJobs.some((j) => j.name === job)) throw APIError.notFound(`no cron job "${job}"`);
    const result = await (await cronScheduler()).runNow(job);
    if (result.claim === "overlap" && result.running) {
      throw APIError.aborted(`not run: run ${result.running.id} of ${job} has been in progress since ${result.running.startedAt.toISOString()} on ${result.running.instance}`);
    }
    const run = result.run;
    if (!run || (run.outcome !== "succeeded" && run.outcome !== "failed")) throw APIError.aborted(`not run (${result.claim})`);
    return {
      outcome: run.outcome,
      durationMs: durationOf(run) ?? 0,
      error: run.error,
      traceId: result.traceId ?? null,
    };
  });
}

function cronRun(run: RunRecord): CronRun {
  return {
    startedAt: run.startedAt.toISOString(),
    durationMs: durationOf(run),
    trigger: run.trigger,
    outcome: run.outcome,
    error: run.error,
  };
}

function durationOf(run: RunRecord): number | null {
  return run.finishedAt ? run.finishedAt.getTime() - run.startedAt.getTime() : null;
}

