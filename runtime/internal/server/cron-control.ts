import type { FastifyInstance } from "fastify";
import { cronScheduler } from "../cron/mod.ts";
import { APIError } from "../errors/api-error.ts";
import { cronControlPath } from "../meta/runtime-routes.ts";
import { bearerGuard } from "./bearer.ts";

/**
 * The operators' cron command goes through these when the server owns the
 * embedded database (no other process may open it). The token is random per
 * start and written only to the owner file (control/owner.ts).
 *   GET  /__encore/cron      each job, its schedule, next tick and last run
 *   POST /__encore/cron/run  {"job"}: runs it now, answers when it has ended
 */
export function registerCronControl(app: FastifyInstance, token: string | null): void {
  if (!token) return;
  const authorize = bearerGuard(token, "control");

  app.get(cronControlPath, async (req) => {
    authorize(req);
    return { jobs: await (await cronScheduler()).status() };
  });

  app.post(`${cronControlPath}/run`, async (req) => {
    authorize(req);
    const job = (req.body as { job?: unknown } | null)?.job;
    if (typeof job !== "string") throw APIError.invalidArgument('expected {"job": "<cron job name>"}');
    const scheduler = await cronScheduler();
    if (!scheduler.jobs.some((j) => j.name === job)) throw APIError.notFound(`no cron job "${job}"`);
    return scheduler.runNow(job);
  });
}
