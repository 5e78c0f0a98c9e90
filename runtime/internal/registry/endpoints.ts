import path from "node:path";
import { appRoot } from "../config/app-root.ts";
import { appMeta } from "../meta/load.ts";
import type { AuthHandlerMeta, EndpointMeta, ServiceMeta } from "../meta/types.ts";
import { compileChain, type MiddlewareChain } from "../middleware/chain.ts";
import { checkedMiddlewares, middlewaresFor } from "../middleware/targets.ts";
import { connectionsReady } from "../sql/databases.ts";
import { declaredAuthHandler } from "./gateway.ts";

/** Where the generator writes the map from "service.endpoint" to the app's exported handler. */
export const handlersFile = "encore.gen/internal/handlers.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- handlers take and return app-defined shapes
export type Handler = (...args: any[]) => unknown;

export interface Endpoint {
  readonly meta: EndpointMeta;
  /** The app's function (typed, raw) or StaticAssets object (static). */
  readonly handler: unknown;
  /** The service's middlewares that target this endpoint, compiled; absent or null when none do. */
  readonly chain?: MiddlewareChain | null;
}

/** The app's auth handler with its metadata. */
export interface AuthHandlerEntry {
  readonly meta: AuthHandlerMeta;
  readonly handler: (params: Record<string, unknown>) => Promise<unknown>;
}

let loading: Promise<ReadonlyMap<string, Endpoint>> | undefined;
let loadingAuth: Promise<AuthHandlerEntry | null> | undefined;
let imported: Promise<HandlersModule> | undefined;

/** What encore.gen/internal/handlers.ts exports. */
export type HandlersModule = { handlers: Record<string, unknown>; middlewares?: Record<string, unknown> };

// By default the generated map is imported by path (tsx, vitest); a bundle, where no
// such file exists at run time, supplies its own import of it instead.
let importHandlers = (): Promise<HandlersModule> => import(path.join(appRoot, handlersFile)) as Promise<HandlersModule>;

/** For bundles: how to import the generated handler map. Call before the server starts. */
export function provideHandlers(load: () => Promise<HandlersModule>): void {
  importHandlers = load;
}

/**
 * Every endpoint of the app with its handler, loaded once. Importing the generated
 * handler map imports the app's modules, so this is the boot step that runs them.
 */
export function loadEndpoints(): Promise<ReadonlyMap<string, Endpoint>> {
  loading ??= handlersModule().then((mod) => assembleEndpoints(appMeta().services, mod));
  return loading;
}

/**
 * Pairs each endpoint with its handler and the chain of its service's middlewares that
 * target it, compiled now. Throws on a service whose middlewares could not be applied.
 */
export function assembleEndpoints(services: readonly ServiceMeta[], mod: HandlersModule): Map<string, Endpoint> {
  // Written by every generator that knows middlewares: without it they would be dropped.
  if (mod.middlewares === undefined) throw new Error(`${handlersFile} predates middleware support: run "encore-selfhost gen"`);
  const endpoints = new Map<string, Endpoint>();
  for (const service of services) {
    const declared = checkedMiddlewares(service.name, service.serviceFile ?? service.dir, mod.middlewares[service.name]);
    for (const meta of service.endpoints) {
      const key = `${meta.service}.${meta.name}`;
      const handler = mod.handlers[key];
      if (handler === undefined) throw new Error(`${handlersFile} has no handler for ${key}: run "encore-selfhost gen"`);
      // Static files run no app code, so no middleware wraps them (nor does Encore's).
      const chain = meta.kind === "static" ? null : compileChain(service.name, middlewaresFor(meta, declared));
      endpoints.set(key, { meta, handler, chain });
    }
  }
  return endpoints;
}

/** The app's auth handler, loaded once with the endpoints; null when the app has none. */
export function loadAuthHandler(): Promise<AuthHandlerEntry | null> {
  loadingAuth ??= (async () => {
    const meta = appMeta().auth ?? null;
    if (!meta) return null;
    await handlersModule(); // imports the module that constructs the Gateway
    const handler = declaredAuthHandler();
    if (typeof handler !== "function") {
      throw new Error(`the Gateway declared at ${meta.gateway.file}:${meta.gateway.line} gave no auth handler ${meta.service}.${meta.name}: run "encore-selfhost gen"`);
    }
    return { meta, handler: handler as AuthHandlerEntry["handler"] };
  })();
  return loadingAuth;
}

function handlersModule(): Promise<HandlersModule> {
  // Importing the app's modules may hand out connection strings (drizzle(db.connectionString));
  // they are served before any handler runs, also when the first call is in-process (tests).
  imported ??= importHandlers().then(async (mod) => {
    await connectionsReady();
    return mod;
  });
  return imported;
}
