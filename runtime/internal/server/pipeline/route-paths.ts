import type { HTTPMethods } from "fastify";
import type { EndpointMeta } from "../../meta/types.ts";

const anyMethod: HTTPMethods[] = ["DELETE", "GET", "HEAD", "PATCH", "POST", "PUT", "OPTIONS"];

/**
 * Encore path syntax to Fastify's: "/files/*path" and "/!path" become "/files/*" and "/*".
 * Fastify's "*" also matches an empty rest ("/" for "/*"), with "" as its value. Encore
 * registers such a path twice, with and without the segment (runtimes/core/src/api/paths.rs),
 * so "/" takes the route without it and the parameter is absent: the endpoints leave it out.
 */
export function toFastifyPath(path: string): string {
  return path.replace(/\/[*!][A-Za-z0-9_]+$/, "/*");
}

/**
 * Copies the value Fastify matched for "*" to the endpoint's wildcard or fallback parameter
 * (`name`, from its path), unless it matched nothing: then the parameter stays absent.
 */
export function nameWildcard(params: Record<string, unknown>, name: string | undefined): void {
  if (name !== undefined && params["*"] !== "") params[name] = params["*"];
}

/** The folder prefix of a static endpoint's path: "/assets/*path" becomes "/assets/", "/!path" "/". */
export function staticPrefix(path: string): string {
  return path.replace(/[:*!][A-Za-z0-9_]*$/, "");
}

/** The methods an endpoint's route answers: its declared ones, every method for "*". */
export function routeMethods(meta: EndpointMeta): HTTPMethods[] {
  return meta.methods.includes("*") ? anyMethod : (meta.methods as HTTPMethods[]);
}

/**
 * The endpoints whose path is also served with one trailing slash, as Encore's router serves
 * it (runtimes/core/src/api/paths.rs): every path but "/", a wildcard's or fallback's, or one
 * already ending in "/", unless another endpoint of the same kind (fallback or not) declares
 * that path (parameters compared by position, not name). "/test-other-error/" then reaches
 * "/test-other-error", and "/:code/" reaches "/:code", for every method.
 */
export function trailingSlashTwins(metas: readonly EndpointMeta[]): Set<EndpointMeta> {
  const twins = new Set<EndpointMeta>();
  for (const fallback of [false, true]) {
    const group = metas.filter((meta) => isFallbackPath(meta.path) === fallback);
    const declared = new Set(group.flatMap((meta) => routedShapes(meta.path)));
    for (const meta of group) {
      const shape = shapeOf(meta.path);
      if (shape === "/" || shape.includes("/*") || shape.endsWith("/")) continue;
      if (!declared.has(`${shape}/`)) twins.add(meta);
    }
  }
  return twins;
}

function isFallbackPath(path: string): boolean {
  return /\/![A-Za-z0-9_]+$/.test(path);
}

// "/a/:id" as "/a/:_"; "/files/*rest" and "/!path" end in "/*_".
function shapeOf(path: string): string {
  return path.replace(/\/:[A-Za-z0-9_]+/g, "/:_").replace(/\/[*!][A-Za-z0-9_]+$/, "/*_");
}

// A wildcard's or fallback's path is routed twice: with the segment and without it ("/files/").
function routedShapes(path: string): string[] {
  const shape = shapeOf(path);
  return shape.endsWith("/*_") ? [shape.slice(0, -"*_".length), shape] : [shape];
}
