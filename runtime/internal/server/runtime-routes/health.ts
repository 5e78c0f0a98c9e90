import type { FastifyInstance } from "fastify";
import { config } from "../../config/mod.ts";
import { appName, environmentName } from "../../meta/app-name.ts";
import { appMeta } from "../../meta/load.ts";
import { encoreHealthPath, healthPath, livenessPath } from "../../meta/runtime-routes.ts";
import type { SqlQueryable } from "../../sql/driver.ts";
import { openedDatabases } from "../../sql/databases.ts";

/** How long a database may take to answer `SELECT 1` before it counts as unavailable. */
const databaseCheckMs = 1000;

export interface HealthOptions {
  /** True once the process has been told to stop (lifecycle/shutdown.ts): both paths then answer 503. */
  readonly shuttingDown: () => boolean;
  /** The databases to check; every database the runtime opened, by default. */
  readonly databases?: () => readonly { readonly name: string; readonly driver: Pick<SqlQueryable, "query"> }[];
}

interface CheckResult {
  readonly name: string;
  readonly passed: boolean;
  readonly error?: string;
}

/**
 * Liveness at GET /livez: 200 while the process answers HTTP, without asking anything else.
 * Readiness at two paths, for two kinds of load balancer:
 *   - GET /healthz, this runtime's own: `{status, databases}`;
 *   - /__encore/healthz, any method, in the shape Encore's runtimes answer it:
 *     `{code, message, details: {app_slug, env_name, app_revision, encore_compiler,
 *     deploy_id, checks: [{name, passed, error?}], enabled_experiments}}`.
 * Both are 200 when every database answers a trivial query within a second, and 503 when
 * one does not (code `unavailable`) or from the stop signal on (code `shutting_down`, without
 * asking the databases), so load balancers route around the instance. Encore reports no
 * database checks; they are added here so one probe tells whether the instance can serve.
 */
export async function registerHealth(server: FastifyInstance, options: HealthOptions): Promise<void> {
  const databases = options.databases ?? openedDatabases;

  // Liveness (runtime-routes.ts): answered by the event loop alone, during outages and stops too.
  server.get(livenessPath, async (_req, reply) => {
    reply.header("Cache-Control", "no-store");
    return { status: "alive" };
  });

  server.get(healthPath, async (_req, reply) => {
    reply.header("Cache-Control", "no-store");
    if (options.shuttingDown()) return reply.code(503).send({ status: "shutting_down", databases: {} });
    const checks = await checkDatabases(databases());
    const ok = checks.every((c) => c.passed);
    const byName = Object.fromEntries(checks.map((c) => [c.name, c.passed ? "ok" : `unavailable: ${c.error}`]));
    return reply.code(ok ? 200 : 503).send({ status: ok ? "ok" : "unavailable", databases: byName });
  });

  // In a scope of its own, where no body is parsed: a probe's method, Content-Type or body,
  // whatever they are, never turn its answer into a 4xx.
  await server.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_req, _payload, done) => done(null));
    scope.all(encoreHealthPath, async (_req, reply) => {
      reply.header("Cache-Control", "no-store").header("X-Content-Type-Options", "nosniff");
      const identity = appIdentity();
      if (options.shuttingDown()) {
        const checks = [{ name: "shutdown", passed: false, error: "a stop signal arrived: this instance is finishing its requests" }];
        return reply.code(503).send(encoreBody("shutting_down", "the app is shutting down", identity, checks));
      }
      const checks = (await checkDatabases(databases())).map((c) => ({ ...c, name: `database.${c.name}` }));
      checks.push({ name: "shutdown", passed: true });
      const failed = checks.filter((c) => !c.passed).map((c) => c.name);
      return failed.length === 0
        ? reply.code(200).send(encoreBody("ok", "the app is up and running", identity, checks))
        : reply.code(503).send(encoreBody("unavailable", `not ready: ${failed.join(", ")} failed`, identity, checks));
    });
  });
}

async function checkDatabases(databases: readonly { name: string; driver: Pick<SqlQueryable, "query"> }[]): Promise<CheckResult[]> {
  return Promise.all(
    databases.map(async ({ name, driver }) => {
      try {
        await withTimeout(driver.query("SELECT 1", []), databaseCheckMs);
        return { name, passed: true };
      } catch (err) {
        return { name, passed: false, error: (err as Error).message };
      }
    }),
  );
}

interface AppIdentity {
  readonly appSlug: string;
  readonly envName: string;
}

/** What Encore's check says of the app. A self-hosted app has no Encore deploy id, revision or compiler: those are "". */
function appIdentity(): AppIdentity {
  return { appSlug: appName(appMeta(), config().appRoot), envName: environmentName };
}

function encoreBody(code: "ok" | "unavailable" | "shutting_down", message: string, identity: AppIdentity, checks: readonly CheckResult[]) {
  return {
    code,
    message,
    details: {
      app_slug: identity.appSlug,
      env_name: identity.envName,
      app_revision: "",
      encore_compiler: "",
      deploy_id: "",
      checks,
      enabled_experiments: [],
    },
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
