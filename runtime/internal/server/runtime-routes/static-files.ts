import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, HTTPMethods, onRequestAsyncHookHandler } from "fastify";
import type { ServerResponse } from "node:http";
import path from "node:path";
import { APIError } from "../../errors/api-error.ts";
import type { EndpointMeta, StaticMeta } from "../../meta/types.ts";
import { fallbackConstraints } from "../pipeline/fallback-routes.ts";
import { routeMethods, staticPrefix } from "../pipeline/route-paths.ts";
import { StaticFolder } from "./static-folder.ts";

/**
 * Serves an api.static endpoint's folder, in a scope of its own so its auth step guards
 * these files and nothing else; on a fallback path ("/!path") only what no other route
 * takes. A path with no file behind it is answered as Encore's
 * runtime does (runtimes/core/src/api/static_assets.rs): with the `notFound` file under
 * `notFoundStatus` (404 by default) when one is configured, else 404 "file not found".
 * Served as 200, the notFound file is the page of a single-page app and keeps its cache
 * validators; under any other status it is an error page, sent whole every time.
 * Dotfiles and whatever a symlink leads to outside the folder are answered as missing
 * (static-folder.ts).
 */
export async function registerStaticFiles(
  server: FastifyInstance,
  meta: EndpointMeta & { static: StaticMeta },
  appRoot: string,
  guard: onRequestAsyncHookHandler | null,
): Promise<void> {
  const files = meta.static;
  const notFound = files.notFound ? path.resolve(appRoot, files.notFound) : null;
  const notFoundStatus = files.notFoundStatus ?? 404;
  const errorPage = notFoundStatus === 200 ? {} : { etag: false, lastModified: false, acceptRanges: false };
  const root = path.resolve(appRoot, files.dir);
  const folder = new StaticFolder(root);
  await server.register(async (scope) => {
    if (guard) scope.addHook("onRequest", guard);
    await scope.register(fastifyStatic, {
      root,
      serve: false, // the route below: it may be a fallback route, and answers a missing file itself
      ...ownHeaders(files.headers),
    });
    scope.route({
      method: routeMethods(meta) as HTTPMethods[],
      url: `${staticPrefix(meta.path)}*`,
      ...fallbackConstraints(meta),
      exposeHeadRoute: false,
      handler: async (req, reply) => {
        // @fastify/static answers a missing file with reply.callNotFound(): this reply's is replaced.
        reply.callNotFound = () => {
          reply.callNotFound = () => fileNotFound(reply); // the notFound file itself missing
          if (notFound === null) return fileNotFound(reply);
          // An error page is sent whole: no 304 or 206 from the request's preconditions.
          if (notFoundStatus !== 200) for (const name of PRECONDITIONS) delete req.raw.headers[name];
          reply.code(notFoundStatus);
          return reply.sendFile(path.basename(notFound), path.dirname(notFound), errorPage);
        };
        const file = `/${(req.params as Record<string, string>)["*"] ?? ""}`;
        if (await folder.holds(file)) void reply.sendFile(file);
        else void reply.callNotFound();
        return reply;
      },
    });
  });
}

/**
 * The app's `headers`, on every file and on the notFound page, as Encore adds them (not on
 * a JSON error). Where the app sets Cache-Control, ETag or Last-Modified the file server
 * sets none of its own, which would replace the app's: Encore's sends no Cache-Control,
 * and adds no second ETag or Last-Modified to one the app configured.
 */
function ownHeaders(headers: StaticMeta["headers"]): Record<string, unknown> {
  if (!headers) return {};
  const entries = Object.entries(headers);
  const names = new Set(entries.map(([name]) => name.toLowerCase()));
  return {
    setHeaders: (res: ServerResponse) => {
      for (const [name, value] of entries) res.setHeader(name, value as string | string[]);
    },
    ...(names.has("cache-control") && { cacheControl: false }),
    ...(names.has("etag") && { etag: false }),
    ...(names.has("last-modified") && { lastModified: false }),
  };
}

const PRECONDITIONS = ["if-match", "if-none-match", "if-modified-since", "if-unmodified-since", "if-range", "range"];

function fileNotFound(reply: FastifyReply): FastifyReply {
  return reply.send(APIError.notFound("file not found"));
}
