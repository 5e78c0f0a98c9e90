import Fastify, { type FastifyInstance, type FastifyReply, type onRequestAsyncHookHandler } from "fastify";
import { createServer } from "node:http";
import { APIError } from "../errors/api-error.ts";
import type { RuntimeConfig } from "../config/config.ts";
import { metricsPath } from "../meta/runtime-routes.ts";
import type { AppMeta } from "../meta/types.ts";
import { meter } from "../metrics/mod.ts";
import { bucketSpec, localObjects } from "../objects/mod.ts";
import type { AuthHandlerEntry, Endpoint } from "../registry/endpoints.ts";
import { compileAuthenticator, compileAuthStep, type Authenticator } from "./pipeline/auth.ts";
import { registerJsonBodyParser } from "./pipeline/body.ts";
import { devRouting, isDevRoute, type DevCalls } from "./runtime-routes/dev-calls.ts";
import { clientErrorHandler } from "./pipeline/client-errors.ts";
import { noErrorExtras } from "../config/error-extras-config.ts";
import { errorHandler, toWire } from "./pipeline/errors.ts";
import { registerHealth } from "./runtime-routes/health.ts";
import { registerMetricsRoute } from "./runtime-routes/metrics.ts";
import { objectRoutes } from "./runtime-routes/objects.ts";
import { observeRequests, routeLabels } from "./pipeline/observe.ts";
import { registerOpenApi } from "./runtime-routes/openapi.ts";
import { registerPubSubAdmin } from "./runtime-routes/pubsub-admin.ts";
import { fallbackStrategy, isFallbackEndpoint } from "./pipeline/fallback-routes.ts";
import { frontRouter } from "./pipeline/front-router.ts";
import { IdentifiedRequest } from "../reqtrack/request-id.ts";
import { registerInRawScope } from "./pipeline/raw-endpoint.ts";
import { RawResponse } from "./pipeline/raw-response.ts";
import type { RouteContext } from "./pipeline/route-context.ts";
import { trailingSlashTwins } from "./pipeline/route-paths.ts";
import { endpointRoute, RouteTable, withTrailingSlash } from "./pipeline/route-table.ts";
import { stopSignalled } from "./lifecycle/shutdown.ts";
import { registerStaticFiles } from "./runtime-routes/static-files.ts";
import { streamUpgrades } from "./pipeline/stream-endpoint.ts";

/** How long open streams get, at shutdown, to answer their close before they are cut. */
const streamCloseGraceMs = 2_000;

export interface HttpServerOptions {
  /** The app's auth handler, run by every endpoint's auth step; none when absent. */
  readonly auth?: AuthHandlerEntry | null;
  /** The app's metadata, when GET /openapi.json is to answer its OpenAPI document (SERVE_OPENAPI=on). */
  readonly openApiOf?: AppMeta | null;
  /** With the development dashboard on: internal endpoints are routed for its calls, which carry this secret (runtime-routes/dev-calls.ts). */
  readonly devCalls?: DevCalls | null;
}

/**
 * Builds the public HTTP server (a Fastify instance, not yet listening): every exposed
 * endpoint behind the auth handler's step (stream endpoints over WebSocket), the runtime's
 * own routes (runtime-routes/: /healthz and /__encore/healthz, the local provider's
 * /objects, ...), Encore's error format. Endpoints with expose: false get no route, so from
 * outside they are 404; other services reach them in-process through ~encore/clients, and
 * with `devCalls` the development dashboard over HTTP (runtime-routes/dev-calls.ts).
 * A request's way through it is told in runtime/README.md, "How it works".
 */
export async function buildHttpServer(
  endpoints: Iterable<Endpoint>,
  cfg: Pick<RuntimeConfig, "appRoot" | "exposeInternalErrors" | "pubsubAdminToken" | "objects" | "trustProxy"> & Partial<Pick<RuntimeConfig, "metrics" | "errorExtras">>,
  options: HttpServerOptions = {},
): Promise<FastifyInstance> {
  const all = [...endpoints];
  const exposed = all.filter((e) => e.meta.expose);
  // Whether metrics are on is settled before the routes are compiled: with them off, no route has metrics code.
  const metrics = meter;
  const metricsCfg = cfg.metrics ?? { port: null, token: null };
  if (metrics !== null) checkMetricsPathFree(exposed, metricsCfg);
  const routeContext: RouteContext = {
    auth: options.auth ? compileAuthenticator(options.auth, cfg.trustProxy) : null,
    exposeInternalErrors: cfg.exposeInternalErrors,
    errorExtras: cfg.errorExtras ?? noErrorExtras,
    trustProxy: cfg.trustProxy,
  };
  const twins = trailingSlashTwins(exposed.map((e) => e.meta));
  const routes = exposed
    .filter((e) => e.meta.kind !== "static")
    .flatMap((e) => {
      const route = endpointRoute(e, routeContext);
      return twins.has(e.meta) ? [route, withTrailingSlash(route)] : [route];
    });
  const table = new RouteTable();
  let closing = false;
  const front = frontRouter(table, () => closing);
  const withFallbacks = exposed.some((e) => isFallbackEndpoint(e.meta));
  const upgrades = streamUpgrades(exposed, routeContext, () => closing);
  const dev = options.devCalls ? devRouting(options.devCalls) : null;
  const dispatch = dev ? dev.dispatch(front) : front;
  const constraints = {
    ...(withFallbacks ? { [fallbackStrategy.name]: fallbackStrategy } : {}),
    ...dev?.constraints,
  };
  const server = Fastify({
    logger: false, // errors are logged by the error handler; per-request logs would cost the hot path
    return503OnClosing: true,
    // A path that is not percent-encoded UTF-8 (/files/%ff): Encore's error format, not Fastify's.
    frameworkErrors: (error, _req, reply) => {
      const { status, body } = toWire(APIError.invalidArgument(`invalid request path: ${error.message}`), false);
      void (reply as FastifyReply).code(status).send(body);
    },
    // A request the HTTP parser cannot read: Encore's error format too (pipeline/client-errors.ts).
    clientErrorHandler,
    forceCloseConnections: "idle",
    routerOptions: {
      ignoreTrailingSlash: false,
      maxParamLength: 500,
      ...(Object.keys(constraints).length > 0 ? { constraints } : {}),
    },
    serverFactory: (fastifyHandler) => {
      // Responses as lenient as Encore's raw response (pipeline/raw-response.ts), for raw handlers written for Encore.
      const serve = observeRequests((req, res) => dispatch(req, res) || fastifyHandler(req, res), metrics);
      const node = createServer({ IncomingMessage: IdentifiedRequest, ServerResponse: RawResponse }, serve);
      // Fastify's own default, which it applies only to servers it creates itself: longer
      // than common load balancers' idle timeouts, so they, not we, close idle connections.
      node.keepAliveTimeout = 72_000;
      if (upgrades) node.on("upgrade", upgrades.handle);
      return node;
    },
  });
  // Every route that is not an endpoint's (the runtime's own, static files, HEAD routes Fastify adds) enters the table here.
  server.addHook("onRoute", dev ? (route) => (isDevRoute(route) ? dev.onRoute(route) : table.onRoute(route)) : table.onRoute);
  if (metrics !== null) server.addHook("onRoute", routeLabels(exposed.map((e) => e.meta), metrics));
  server.addHook("preClose", async () => {
    closing = true;
    // Upgraded connections are no longer the HTTP server's to close: without this it would wait for them forever.
    await upgrades?.closeAll(streamCloseGraceMs);
  });
  registerJsonBodyParser(server);
  server.setErrorHandler(errorHandler(cfg.exposeInternalErrors, routeContext.errorExtras));
  server.setNotFoundHandler(() => {
    throw APIError.notFound("endpoint not found");
  });
  await registerHealth(server, { shuttingDown: stopSignalled });
  registerPubSubAdmin(server, cfg.pubsubAdminToken);
  if (metrics !== null) registerMetricsRoute(server, metricsCfg, metrics);
  if (options.openApiOf) registerOpenApi(server, options.openApiOf, cfg.appRoot);
  // The store is reached on the first request, so a server of an app without buckets never makes one.
  if (cfg.objects.provider === "local") await server.register(objectRoutes({ store: localObjects, bucket: bucketSpec }));

  // Each endpoint route enters the table as Fastify gets it, so the table and Fastify's router agree on which comes first.
  for (const route of routes) if (!route.unreadBody) server.route(table.enter(route));
  registerInRawScope(server, routes.filter((r) => r.unreadBody), (route) => table.enter(route));
  if (dev) {
    dev.register(server, all.filter((e) => !e.meta.expose), routeContext, options.auth?.meta ?? null);
  }
  for (const { meta } of exposed) {
    if (meta.kind !== "static" || !meta.static) continue;
    await registerStaticFiles(server, { ...meta, static: meta.static }, cfg.appRoot, staticAuthHook(meta.auth, routeContext.auth));
  }
  await server.ready();
  return server;
}

/** The auth step of a static endpoint: its files run no app code, so only the verdict matters. */
function staticAuthHook(requiresAuth: boolean, auth: Authenticator | null): onRequestAsyncHookHandler | null {
  if (!requiresAuth && auth === null) return null;
  const step = compileAuthStep(requiresAuth, auth);
  return async (req) => {
    await step(req.raw, req.query as Record<string, unknown>);
  };
}

/** /metrics on the app's port is the runtime's: an app serving that path itself gets a clear error, not Fastify's. */
function checkMetricsPathFree(exposed: readonly Endpoint[], cfg: RuntimeConfig["metrics"]): void {
  if (cfg.token === null || cfg.port !== null) return;
  const taken = exposed.find(({ meta }) => meta.path === metricsPath && (meta.methods.includes("GET") || meta.methods.includes("*")));
  if (taken) {
    throw new Error(
      `METRICS_TOKEN serves GET ${metricsPath} on the app's port, which endpoint ${taken.meta.service}.${taken.meta.name} already serves: set METRICS_PORT to serve metrics on a port of their own`,
    );
  }
}
