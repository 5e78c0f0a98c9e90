import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance } from "fastify";
import { createServer } from "node:http";
import path from "node:path";
import { APIError } from "../errors/api-error.ts";
import type { RuntimeConfig } from "../config/config.ts";
import { bucketSpec, localObjects } from "../objects/mod.ts";
import type { Endpoint } from "../registry/endpoints.ts";
import { registerJsonBodyParser } from "./body.ts";
import { errorHandler } from "./errors.ts";
import { registerCronControl } from "./cron-control.ts";
import { registerHealth } from "./health.ts";
import { objectRoutes } from "./objects-routes.ts";
import { registerPubSubAdmin } from "./pubsub-admin.ts";
import { rawFastLane } from "./raw-fast-lane.ts";
import { invokeRaw, registerRawRoutes, staticPrefix, typedRoute } from "./routes.ts";

/**
 * Builds the public HTTP server: every exposed endpoint, /healthz, the local provider's
 * /objects, Encore's error format. Endpoints with expose: false get no route, so from
 * outside they are 404; other services reach them in-process through ~encore/clients.
 */
export async function buildServer(
  endpoints: Iterable<Endpoint>,
  cfg: Pick<RuntimeConfig, "appRoot" | "exposeInternalErrors" | "pubsubAdminToken" | "objects">,
  /** Token for the cron control routes; null leaves them off. */
  controlToken: string | null = null,
): Promise<FastifyInstance> {
  const exposed = [...endpoints].filter((e) => e.meta.expose);
  let closing = false;
  const fastLane = rawFastLane(
    exposed,
    (endpoint, req, res) => invokeRaw(endpoint, req, res, cfg.exposeInternalErrors),
    () => closing,
  );
  const app = Fastify({
    logger: false, // errors are logged by the error handler; per-request logs would cost the hot path
    return503OnClosing: true,
    forceCloseConnections: "idle",
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    serverFactory: (fastifyHandler) => {
      const server = createServer(fastLane ? (req, res) => fastLane(req, res) || fastifyHandler(req, res) : fastifyHandler);
      // Fastify's own default, which it applies only to servers it creates itself: longer
      // than common load balancers' idle timeouts, so they, not we, close idle connections.
      server.keepAliveTimeout = 72_000;
      return server;
    },
  });
  app.addHook("preClose", async () => {
    closing = true;
  });
  registerJsonBodyParser(app);
  app.setErrorHandler(errorHandler(cfg.exposeInternalErrors));
  app.setNotFoundHandler(() => {
    throw APIError.notFound("endpoint not found");
  });
  registerHealth(app);
  registerPubSubAdmin(app, cfg.pubsubAdminToken);
  registerCronControl(app, controlToken);
  // The store is reached on the first request, so a server of an app without buckets never makes one.
  if (cfg.objects.provider === "local") await app.register(objectRoutes({ store: localObjects, bucket: bucketSpec }));

  for (const endpoint of exposed) {
    if (endpoint.meta.kind === "typed") app.route(typedRoute(endpoint));
  }
  registerRawRoutes(app, exposed.filter((e) => e.meta.kind === "raw"), cfg.exposeInternalErrors);
  for (const { meta } of exposed) {
    if (meta.kind !== "static" || !meta.static) continue;
    await app.register(fastifyStatic, {
      root: path.resolve(cfg.appRoot, meta.static.dir),
      prefix: staticPrefix(meta.path),
      decorateReply: false,
      setHeaders: meta.static.headers
        ? (res) => {
            for (const [k, v] of Object.entries(meta.static?.headers ?? {})) res.setHeader(k, v as string | string[]);
          }
        : undefined,
    });
  }
  await app.ready();
  return app;
}
