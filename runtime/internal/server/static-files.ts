import fastifyStatic from "@fastify/static";
import type { FastifyInstance, HTTPMethods, onRequestAsyncHookHandler } from "fastify";
import path from "node:path";
import type { EndpointMeta, StaticMeta } from "../meta/types.ts";
import { fallbackConstraints } from "./fallback-routes.ts";
import { routeMethods, staticPrefix } from "./routes.ts";

/**
 * Serves an api.static endpoint's folder, in a scope of its own so its auth step guards
 * these files and nothing else; on a fallback path ("/!path") only what no other route takes.
 */
export async function registerStaticFiles(
  app: FastifyInstance,
  meta: EndpointMeta & { static: StaticMeta },
  appRoot: string,
  guard: onRequestAsyncHookHandler | null,
): Promise<void> {
  const files = meta.static;
  await app.register(async (scope) => {
    if (guard) scope.addHook("onRequest", guard);
    await scope.register(fastifyStatic, {
      root: path.resolve(appRoot, files.dir),
      serve: false, // the route below, which may be a fallback route
      setHeaders: files.headers
        ? (res) => {
            for (const [k, v] of Object.entries(files.headers ?? {})) res.setHeader(k, v as string | string[]);
          }
        : undefined,
    });
    scope.route({
      method: routeMethods(meta) as HTTPMethods[],
      url: `${staticPrefix(meta.path)}*`,
      ...fallbackConstraints(meta),
      exposeHeadRoute: false,
      handler: (req, reply) => {
        void reply.sendFile(`/${(req.params as Record<string, string>)["*"] ?? ""}`);
      },
    });
  });
}
