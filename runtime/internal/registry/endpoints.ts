import path from "node:path";
import { appRoot } from "../config/app-root.ts";
import { appMeta } from "../meta/load.ts";
import type { AuthHandlerMeta, EndpointMeta } from "../meta/types.ts";
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
}

/** The app's auth handler with its metadata. */
export interface AuthHandlerEntry {
  readonly meta: AuthHandlerMeta;
  readonly handler: (params: Record<string, unknown>) => Promise<unknown>;
}

let loading: Promise<ReadonlyMap<string, Endpoint>> | undefined;
let loadingAuth: Promise<AuthHandlerEntry | null> | undefined;
let imported: Promise<HandlersModule> | undefined;

type HandlersModule = { handlers: Record<string, unknown> };

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
  loading ??= (async () => {
    const mod = await handlersModule();
    const endpoints = new Map<string, Endpoint>();
    for (const service of appMeta().services) {
      for (const meta of service.endpoints) {
        const key = `${meta.service}.${meta.name}`;
        const handler = mod.handlers[key];
        if (handler === undefined) throw new Error(`${handlersFile} has no handler for ${key}: run "npm run gen"`);
        endpoints.set(key, { meta, handler });
      }
    }
    return endpoints;
  })();
  return loading;
}

/** The app's auth handler, loaded once with the endpoints; null when the app has none. */
export function loadAuthHandler(): Promise<AuthHandlerEntry | null> {
  loadingAuth ??= (async () => {
    const meta = appMeta().auth ?? null;
    if (!meta) return null;
    await handlersModule(); // imports the module that constructs the Gateway
    const handler = declaredAuthHandler();
    if (typeof handler !== "function") {
      throw new Error(`the Gateway declared at ${meta.gateway.file}:${meta.gateway.line} gave no auth handler ${meta.service}.${meta.name}: run "npm run gen"`);
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
