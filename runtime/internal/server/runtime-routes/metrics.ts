import type { FastifyInstance } from "fastify";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { MetricsConfig } from "../../config/mod.ts";
import { APIError } from "../../errors/api-error.ts";
import { metricsPath } from "../../meta/runtime-routes.ts";
import type { Meter } from "../../metrics/mod.ts";
import { requestIdHeader, requestIdOf } from "../../reqtrack/request-id.ts";
import { bearerGuard } from "./bearer.ts";
import { toWire } from "../pipeline/errors.ts";
import { logFailure } from "../pipeline/failure-log.ts";

/**
 * GET /metrics on the app's port: only with METRICS_TOKEN and no METRICS_PORT, and only for
 * `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise).
 */
export function registerMetricsRoute(server: FastifyInstance, cfg: MetricsConfig, meter: Meter): void {
  if (cfg.token === null || cfg.port !== null) return;
  const authorize = bearerGuard(cfg.token, "METRICS_TOKEN");
  server.get(metricsPath, async (req, reply) => {
    authorize(req);
    const { contentType, body } = await meter.scrape();
    return reply.type(contentType).send(body);
  });
}

/**
 * METRICS_PORT: a listener of its own on `host` that answers GET /metrics (with METRICS_TOKEN
 * also set, only to its bearer) and 404 to anything else, in Encore's error format.
 * Resolves once it listens.
 */
export async function listenForMetrics(cfg: MetricsConfig, host: string, meter: Meter): Promise<Server> {
  const authorize = cfg.token === null ? null : bearerGuard(cfg.token, "METRICS_TOKEN");
  const server = createServer((req, res) => {
    res.setHeader(requestIdHeader, requestIdOf(req));
    serveMetrics(req, res, authorize, meter).catch((err: unknown) => {
      const { status, body } = toWire(err, false);
      if (status >= 500) logFailure(err, status, req, "metrics scrape failed");
      if (!res.headersSent) res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(cfg.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return server;
}

async function serveMetrics(req: IncomingMessage, res: ServerResponse, authorize: ReturnType<typeof bearerGuard> | null, meter: Meter): Promise<void> {
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  if (path !== metricsPath || (req.method !== "GET" && req.method !== "HEAD")) throw APIError.notFound("endpoint not found");
  authorize?.(req);
  const { contentType, body } = await meter.scrape();
  res.writeHead(200, { "content-type": contentType, "content-length": Buffer.byteLength(body) });
  res.end(req.method === "HEAD" ? undefined : body);
}

/** Where the listener listens, for the start-up log. */
export function metricsAddress(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}${metricsPath}`;
}
