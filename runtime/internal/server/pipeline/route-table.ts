import type { HTTPMethods, RouteOptions } from "fastify";
import FindMyWay, { type FindResult, type HTTPMethod, type HTTPVersion } from "find-my-way";
import type { Endpoint } from "../../registry/endpoints.ts";
import { isFallbackEndpoint, isFallbackRoute } from "./fallback-routes.ts";
import { fitsRawFastLane, rawInvoker, rawRoute } from "./raw-endpoint.ts";
import type { NodeInvoker, RouteContext } from "./route-context.ts";
import { routeMethods } from "./route-paths.ts";
import { plainRequestRoute } from "./stream-endpoint.ts";
import { typedRoute } from "./typed-endpoint.ts";
import { fitsTypedFastLane, typedFastLane } from "./typed-fast-lane.ts";

/** One exposed endpoint's route: what Fastify serves, and what the fast lane serves before it. */
export interface EndpointRoute {
  /** The route Fastify serves: every request the fast lane does not take, and all of them while the server closes. */
  readonly fastify: RouteOptions;
  /** Serves `fastLaneMethods` before Fastify, on Node's request and response; null when only Fastify serves the endpoint. */
  readonly fastLane: NodeInvoker | null;
  readonly fastLaneMethods: readonly HTTPMethods[];
  readonly fallback: boolean;
  /** A raw endpoint's: routed in a scope whose parser leaves the body unread (raw-endpoint.ts registerInRawScope). */
  readonly unreadBody: boolean;
}

/**
 * Compiles, at boot, how an exposed typed, raw or stream endpoint is served. The fast lane
 * takes raw endpoints that answer only GET/HEAD (a raw handler uses neither Fastify's
 * request nor its reply, and building them costs ~15% of the short-link redirect's
 * throughput) and typed GET endpoints that fit it (typed-fast-lane.ts), with the HEAD
 * Fastify adds to their GET route.
 */
export function endpointRoute(endpoint: Endpoint, ctx: RouteContext): EndpointRoute {
  const fallback = isFallbackEndpoint(endpoint.meta);
  switch (endpoint.meta.kind) {
    case "typed": {
      const fast = fitsTypedFastLane(endpoint);
      return { fastify: typedRoute(endpoint, ctx), fastLane: fast ? typedFastLane(endpoint, ctx) : null, fastLaneMethods: fast ? ["GET", "HEAD"] : [], fallback, unreadBody: false };
    }
    case "raw": {
      const invoke = rawInvoker(endpoint, ctx);
      const fast = fitsRawFastLane(endpoint);
      return { fastify: rawRoute(endpoint, invoke), fastLane: fast ? invoke : null, fastLaneMethods: fast ? routeMethods(endpoint.meta) : [], fallback, unreadBody: true };
    }
    case "stream":
      return { fastify: plainRequestRoute(endpoint), fastLane: null, fastLaneMethods: [], fallback: false, unreadBody: false };
    default:
      throw new Error(`endpoint ${endpoint.meta.service}.${endpoint.meta.name}: ${endpoint.meta.kind} endpoints have no route of this kind`);
  }
}

/** What the table holds for one method and path. */
export interface TableEntry {
  /** Serves the request before Fastify; null: Fastify serves it. */
  readonly fastLane: NodeInvoker | null;
  /** A fallback route ("/!path"): taken only when no other route matches. */
  readonly fallback: boolean;
}

const servedByFastify: TableEntry = Object.freeze({ fastLane: null, fallback: false });
const fallbackByFastify: TableEntry = Object.freeze({ fastLane: null, fallback: true });
const noop = () => {};

/**
 * The routes of one server by method and path: the one place that says which requests the
 * fast lane serves, read by the front router before Fastify sees a request. An endpoint's
 * route is entered as it is handed to Fastify (`enter`), with its fast lane; every other
 * route Fastify gets (the runtime's own, static files, the HEAD route Fastify adds to a GET
 * one) is entered by Fastify's onRoute hook. So a path resolves here as Fastify resolves it
 * (static beats parametric; of routes that differ only in constraints, the first stays),
 * and no route is left out for a fallback to shadow. Fallback routes sit in a router of
 * their own, consulted after the main one, as Encore keeps them.
 */
export class RouteTable {
  readonly #main = FindMyWay({ maxParamLength: 500 });
  readonly #fallback = FindMyWay({ maxParamLength: 500 });
  #hasFallback = false;
  /** Methods some fallback route answers. */
  readonly fallbackMethods = new Set<string>();
  /** Whether some route has a fast lane or is a fallback: without one, the front router has nothing to do. */
  active = false;

  /** Enters an endpoint's route and returns it, for Fastify to be given next. */
  enter(route: EndpointRoute): RouteOptions {
    const { fastify, fastLane, fastLaneMethods, fallback } = route;
    const fast: TableEntry | null = fastLane === null ? null : { fastLane, fallback };
    const methods = new Set([...[fastify.method].flat(), ...fastLaneMethods]) as Set<HTTPMethods>;
    for (const method of methods) {
      this.#add(method, fastify.url, fast !== null && fastLaneMethods.includes(method) ? fast : fallback ? fallbackByFastify : servedByFastify);
    }
    return fastify;
  }

  /** Fastify's onRoute hook: enters each route Fastify gets that is not in the table yet. */
  readonly onRoute = (route: RouteOptions): void => {
    const entry = isFallbackRoute(route) ? fallbackByFastify : servedByFastify;
    for (const method of [route.method].flat()) this.#add(method, route.url, entry);
  };

  /** The route a request's method and path resolve to; a fallback route only when no other matches. */
  find(method: HTTPMethod, path: string): FindResult<HTTPVersion.V1> | null {
    let inMain = this.#main.find(method, path);
    // Encore's router never matches a parameter to an empty segment ("/" is not "/:code"),
    // which find-my-way does: with a fallback to take such a path, it goes there.
    if (this.#hasFallback && inMain && hasEmptyParam(inMain.params)) inMain = null;
    return inMain ?? (this.#hasFallback ? this.#fallback.find(method, path) : null);
  }

  #add(method: string, url: string, entry: TableEntry): void {
    if (entry.fastLane !== null || entry.fallback) this.active = true;
    if (entry.fallback) {
      this.#hasFallback = true;
      this.fallbackMethods.add(method);
    }
    const router = entry.fallback ? this.#fallback : this.#main;
    if (!router.hasRoute(method as HTTPMethod, url)) router.on(method as HTTPMethod, url, noop, entry);
  }
}

function hasEmptyParam(params: Record<string, string | undefined>): boolean {
  for (const name in params) if (params[name] === "" && name !== "*") return true;
  return false;
}

/** The same endpoint's route at its path with a trailing slash (route-paths.ts trailingSlashTwins). */
export function withTrailingSlash(route: EndpointRoute): EndpointRoute {
  return { ...route, fastify: { ...route.fastify, url: `${route.fastify.url}/` } };
}
