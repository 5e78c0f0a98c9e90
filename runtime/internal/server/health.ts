import type { FastifyInstance } from "fastify";
import { healthPath } from "../meta/runtime-routes.ts";
import { openedDatabases } from "../sql/databases.ts";

/**
 * GET /healthz: liveness, and readiness of every database. 200 when each answers
 * a trivial query within a second, 503 otherwise, so load balancers can route around it.
 */
export function registerHealth(app: FastifyInstance): void {
  app.get(healthPath, async (_req, reply) => {
    const databases: Record<string, "ok" | string> = {};
    await Promise.all(
      openedDatabases().map(async ({ name, driver }) => {
        try {
          await withTimeout(driver.query("SELECT 1", []), 1000);
          databases[name] = "ok";
        } catch (err) {
          databases[name] = `unavailable: ${(err as Error).message}`;
        }
      }),
    );
    const ok = Object.values(databases).every((s) => s === "ok");
    return reply.code(ok ? 200 : 503).send({ status: ok ? "ok" : "unavailable", databases });
  });
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
