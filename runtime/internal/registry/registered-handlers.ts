// Handlers given at run time through encore.dev/internal/codegen/appinit, the way Encore's own
// generated entry point gives them (registerHandlers, then run), instead of through the map
// the runtime's generator writes (encore.gen/internal/handlers.ts). The endpoints themselves
// still come from the generated metadata: a handler names one of them or is refused.
import { appMeta } from "../meta/load.ts";
import type { HandlersModule } from "./endpoints.ts";

/** One endpoint's implementation, as Encore's generated entry point describes it (its ApiRoute). */
export interface RegisteredRoute {
  readonly service: string;
  readonly name: string;
  readonly handler: unknown;
  readonly raw: boolean;
  readonly streamingRequest: boolean;
  readonly streamingResponse: boolean;
}

const handlers: Record<string, unknown> = {};
const middlewares: Record<string, unknown> = {};

/**
 * Records `route` as the implementation of the endpoint it names, with its service's
 * middlewares (Encore's entry point hands each handler the whole list of its service).
 * Throws when the route names no endpoint of the app, or one of another kind.
 */
export function registerRoute(route: RegisteredRoute, serviceMiddlewares: unknown): void {
  const key = `${route.service}.${route.name}`;
  const meta = appMeta()
    .services.find((s) => s.name === route.service)
    ?.endpoints.find((e) => e.name === route.name);
  if (!meta) throw new Error(`registerHandlers: ${key} is not an endpoint of this app (run "encore-selfhost gen" after adding one)`);
  if (typeof route.handler !== "function" && meta.kind !== "static") throw new Error(`registerHandlers: the handler of ${key} is not a function`);
  const kind = route.streamingRequest || route.streamingResponse ? "stream" : route.raw ? "raw" : "typed";
  // A static endpoint's route is registered as a plain one by Encore's generator.
  if (meta.kind !== kind && !(meta.kind === "static" && kind === "typed")) {
    throw new Error(`registerHandlers: ${key} is registered as a ${kind} endpoint, but the app declares it as ${meta.kind}`);
  }
  handlers[key] = route.handler;
  if (middlewares[route.service] !== undefined && middlewares[route.service] !== serviceMiddlewares) {
    throw new Error(`registerHandlers: the handlers of service "${route.service}" carry different middleware lists`);
  }
  middlewares[route.service] = serviceMiddlewares;
}

/** What was registered, in the shape of the generated handler map. */
export function registeredHandlers(): HandlersModule {
  return { handlers, middlewares };
}
