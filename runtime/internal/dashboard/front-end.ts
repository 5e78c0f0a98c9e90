import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { appRoot, runtimeDir } from "../config/app-root.ts";
import { APIError } from "../errors/api-error.ts";

/** The runtime package's script that builds the front end into dashboard/dist. */
export const buildCommand = "npm run build:dashboard -w encore-selfhost";

/**
 * The dashboard's front end: the files its build wrote into the runtime package's
 * dashboard/dist, served from here (never from a CDN), index.html for / and for any other
 * page path, as a single-page app's. Without a build, / says how to make one.
 */
export async function registerFrontEnd(app: FastifyInstance, dist = distDir()): Promise<void> {
  if (!existsSync(path.join(dist, "index.html"))) {
    app.get("/*", async (req, reply) => {
      if (isApiPath(req.url)) throw APIError.notFound("no such dashboard API");
      return reply.type("text/html; charset=utf-8").send(notBuiltPage(dist));
    });
    return;
  }
  await app.register(fastifyStatic, { root: dist, serve: false });
  app.get("/*", (req, reply) => {
    if (isApiPath(req.url)) throw APIError.notFound("no such dashboard API");
    const file = (req.params as Record<string, string>)["*"] ?? "";
    const index = () => reply.header("cache-control", "no-cache").sendFile("index.html");
    if (file === "") return index();
    reply.callNotFound = () => {
      reply.callNotFound = () => reply.send(APIError.notFound("the front end's index.html is missing"));
      return index();
    };
    return reply.sendFile(file);
  });
}

/** Whether a request's URL (with its query) is under /api, which answers JSON, never a page. */
export function isApiPath(url: string): boolean {
  return url === "/api" || url.startsWith("/api/") || url.startsWith("/api?");
}

/**
 * The runtime package's dashboard/dist: resolved from the app, where the package is
 * installed, because the server runs bundled inside the app, far from it; as a fallback
 * (tests, unbundled runs) from this module's own package.
 */
export function distDir(): string {
  let dir: string;
  try {
    dir = path.dirname(createRequire(path.join(appRoot, "package.json")).resolve("encore-selfhost/package.json"));
  } catch {
    dir = runtimeDir();
  }
  return path.join(dir, "dashboard", "dist");
}

function notBuiltPage(dist: string): string {
  const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Development dashboard: front end not built</title>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>The dashboard's front end is not built</h1>
<p>The development dashboard's server is running, but its pages are not in <code>${escape(dist)}</code>.
Build them, then restart <code>encore-selfhost run</code>:</p>
<pre>${escape(buildCommand)}</pre>
<p>(the runtime package's <code>build:dashboard</code> script). The API answers meanwhile under <a href="/api/app">/api/</a>.</p>
</body>
</html>
`;
}
