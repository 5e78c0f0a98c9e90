import type { EndpointMeta, PathParam } from "../../meta/types.ts";
import { ParseError } from "../program/errors.ts";

/** True for a path ending in a fallback segment ("/!path"): it serves what no other route matches. */
export function isFallbackPath(path: string): boolean {
  return /\/![^/]*$/.test(path);
}

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The parameters of an Encore path ("/url/:id", "/files/*rest", "/!fallback"), or a string
 * saying what is wrong. A wildcard ("*name") or fallback ("!name") segment takes the rest of
 * the path, so it comes last (tsparser/src/parser/respath.rs).
 */
export function parsePath(path: string): PathParam[] | string {
  if (!path.startsWith("/")) return `path "${path}" must start with "/"`;
  if (path === "/") return [];
  const params: PathParam[] = [];
  const segments = path.slice(1).split("/");
  for (const [index, segment] of segments.entries()) {
    if (segment === "") return `path "${path}" has an empty segment`;
    if (/[?#]/.test(segment)) return `path "${path}" must not contain "?" or "#"`;
    const marker = segment[0];
    if (marker !== ":" && marker !== "*" && marker !== "!") {
      if (/[:*!]/.test(segment)) return `path "${path}": ":", "*" and "!" may only start a segment`;
      continue;
    }
    const name = segment.slice(1);
    if (!PARAM_NAME.test(name)) return `path "${path}": invalid parameter name "${name}"`;
    if (params.some((param) => param.name === name)) return `path "${path}": parameter "${name}" appears twice`;
    if (marker === ":") {
      params.push({ name, wildcard: false });
      continue;
    }
    const kind = marker === "*" ? "wildcard" : "fallback";
    if (index !== segments.length - 1) return `path "${path}": the ${kind} "${segment}" must be the last segment`;
    params.push(marker === "*" ? { name, wildcard: true } : { name, wildcard: true, fallback: true });
  }
  return params;
}

/**
 * Two endpoints clash when their methods overlap and their paths differ only in parameter
 * names: a router cannot tell "/url/:id" from "/url/:key". Fallback routes are matched only
 * after every other route has failed, so "/!path" clashes with another fallback, never
 * with "/*rest" or "/:code".
 */
export function checkRouteConflicts(endpoints: readonly EndpointMeta[]): void {
  const seen = new Map<string, EndpointMeta[]>();
  for (const endpoint of endpoints) {
    const shape = routeShape(endpoint.path);
    const earlier = seen.get(shape) ?? [];
    for (const other of earlier) {
      const method = overlappingMethod(other.methods, endpoint.methods);
      if (method === undefined) continue;
      throw new ParseError(
        `${endpoint.file}:${endpoint.line}: duplicate route ${method} ${endpoint.path}: ` +
          `endpoint ${label(endpoint)} clashes with ${label(other)} (${other.file}:${other.line}, path ${other.path})`,
        endpoint.file,
        endpoint.line,
      );
    }
    seen.set(shape, [...earlier, endpoint]);
  }
}

function routeShape(path: string): string {
  return path.replace(/\/:[^/]+/g, "/:").replace(/\/([*!])[^/]+$/, "/$1");
}

function overlappingMethod(a: readonly string[], b: readonly string[]): string | undefined {
  if (a.includes("*")) return b[0];
  if (b.includes("*")) return a[0];
  return a.find((method) => b.includes(method));
}

function label(endpoint: EndpointMeta): string {
  return `${endpoint.service}.${endpoint.name}`;
}
