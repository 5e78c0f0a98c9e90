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
