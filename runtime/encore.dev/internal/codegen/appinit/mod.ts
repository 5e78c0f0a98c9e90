// What Encore's generated entry point imports (encore.gen/internal/entrypoints/*/main.ts):
// it registers every handler, then calls run(). Here run() serves them with this runtime, so
// such an entry point, run with `node --import tsx --import encore-selfhost/loader/register.mjs`,
// starts the app as `encore-selfhost start` does. Apps themselves never import this module.
import type { Gateway } from "../../../api/gateway.ts";
import type { Middleware } from "../../../api/mod.ts";
import { provideHandlers } from "../../../../internal/registry/endpoints.ts";
import { registerRoute, registeredHandlers, type RegisteredRoute } from "../../../../internal/registry/registered-handlers.ts";
import { startServer } from "../../../../internal/server/lifecycle/start.ts";

interface EndpointOptions {
  expose: boolean;
  auth: boolean;
  isRaw: boolean;
  isStream: boolean;
  tags: string[];
}

/** One endpoint's implementation with its service's middlewares, as Encore's entry point lists it. */
export type Handler = {
  apiRoute: RegisteredRoute;
  middlewares: Middleware[];
  endpointOptions: EndpointOptions;
};

/** Records each handler; run() serves them. */
export function registerHandlers(handlers: Handler[]): void {
  for (const h of handlers) registerRoute(h.apiRoute, h.middlewares);
}

/** Records one handler, as Encore's test entry point does for the endpoint under test. */
export function registerTestHandler(handler: Handler): void {
  registerRoute(handler.apiRoute, handler.middlewares);
}

/** Does nothing, as in Encore: listing the gateways is what imports them (and their auth handler). */
export function registerGateways(_gateways: Gateway[]): void {}

/**
 * Serves the registered handlers: databases, pub/sub, cron and the HTTP server as
 * `encore-selfhost start` starts them; resolves once the server listens (the process then
 * lives until SIGTERM or SIGINT stops it). `entrypoint` is the calling module's URL, which
 * Encore uses to start worker threads; this runtime serves on one thread.
 */
export async function run(_entrypoint: string): Promise<void> {
  provideHandlers(async () => registeredHandlers());
  try {
    await startServer();
  } catch (err) {
    console.error(`start-up failed: ${(err as Error).message}`);
    process.exitCode = 1;
  }
}
