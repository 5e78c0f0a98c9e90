import type { FastifyInstance, RouteOptions } from "fastify";
import FindMyWay, { type HTTPMethod } from "find-my-way";
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { compileAuthDataCheck } from "../../auth/mod.ts";
import { APIError } from "../../errors/api-error.ts";
import type { AuthHandlerMeta } from "../../meta/types.ts";
import type { Endpoint } from "../../registry/endpoints.ts";
import type { AuthData } from "../../reqtrack/mod.ts";
import type { AuthOutcome, Authenticator } from "../pipeline/auth.ts";
import { isFallbackRoute, markFallback } from "../pipeline/fallback-routes.ts";
import type { FrontDispatch } from "../pipeline/front-router.ts";
import { requestMark, type RequestMark } from "../pipeline/request-mark.ts";
import { rawInvoker, rawRoute, registerInRawScope } from "../pipeline/raw-endpoint.ts";
import type { RouteContext } from "../pipeline/route-context.ts";
import { typedRoute } from "../pipeline/typed-endpoint.ts";

/**
 * Calls from the development dashboard to internal (expose: false) endpoints, which
 * `encore run` lets its dashboard make. With the dashboard on, the app server routes
 * internal endpoints too, but only for requests carrying this boot's secret in
 * `x-encore-dev-call`; to any other request they stay unrouted (404, or the fallback
 * route, as without the dashboard). Such a request may also carry the caller's auth data
 * (`x-encore-dev-auth-data`, base64url JSON), which then stands in for the auth handler.
 * Without the dashboard none of this is set up: exposed endpoints and the raw fast lane
 * are served exactly as before.
 */
export const devCallHeader = "x-encore-dev-call";
export const devAuthDataHeader = "x-encore-dev-auth-data";

/** The secret of one boot, known to this process only (the dashboard's server runs in it). */
export interface DevCalls {
  readonly token: string;
}

export function createDevCalls(): DevCalls {
  return Object.freeze({ token: randomBytes(32).toString("base64url") });
}

/** The auth data header's value for `data`. */
export function encodeAuthData(data: unknown): string {
  return Buffer.from(JSON.stringify(data), "utf8").toString("base64url");
}

/** Internal routes match marked requests only; a marked request still matches every other route. */
const devCall = requestMark("encoreDevCall", "a call from the development dashboard", false);
const isDevCall = devCall.has;

export function isDevRoute(route: Pick<RouteOptions, "constraints">): boolean {
  return devCall.guards(route);
}

/** What buildHttpServer sets up for dashboard calls: the router's constraint, and the internal endpoints' routes. */
export interface DevRouting {
  readonly constraints: Record<string, RequestMark["strategy"]>;
  /** Fastify's onRoute hook: the internal routes, mirrored for `dispatch`. */
  readonly onRoute: (route: RouteOptions) => void;
  /** Runs before the front router: marks requests carrying the secret, and keeps the fast lane from taking an internal path. */
  dispatch(front: FrontDispatch): FrontDispatch;
  /** Routes the internal typed and raw endpoints, behind the constraint. */
  register(server: FastifyInstance, internal: readonly Endpoint[], ctx: RouteContext, auth: AuthHandlerMeta | null): void;
}

export function devRouting(devCalls: DevCalls): DevRouting {
  const expected = Buffer.from(devCalls.token);
  const internalRoutes = FindMyWay({ maxParamLength: 500 });
  const fallbacks = new Set<string>();
  const noop = () => {};

  const carriesToken = (req: IncomingMessage): boolean => {
    const given = req.headers[devCallHeader];
    if (typeof given !== "string") return false;
    const bytes = Buffer.from(given);
    return bytes.length === expected.length && timingSafeEqual(bytes, expected);
  };

  return {
    constraints: { [devCall.name]: devCall.strategy },
    onRoute(route) {
      if (!isDevRoute(route)) return;
      if (isFallbackRoute(route)) fallbacks.add(route.url);
      for (const method of (Array.isArray(route.method) ? route.method : [route.method]) as HTTPMethod[]) {
        if (!internalRoutes.hasRoute(method, route.url)) internalRoutes.on(method, route.url, noop, route.url);
      }
    },
    dispatch(front) {
      return (req, res) => {
        if (req.headers[devCallHeader] === undefined || !carriesToken(req)) return front(req, res);
        devCall.set(req);
        const url = req.url ?? "/";
        const query = url.indexOf("?");
        const found = internalRoutes.find(req.method as HTTPMethod, query === -1 ? url : url.slice(0, query));
        if (!found) return front(req, res);
        // An internal path is Fastify's to route: the fast lane would give "/url" to an exposed "/:code".
        if (fallbacks.has(found.store as string)) markFallback(req);
        return false;
      };
    },
    register(server, internal, ctx, auth) {
      const devCtx: RouteContext = { ...ctx, auth: devAuthenticator(ctx.auth, auth) };
      const withConstraint = (route: RouteOptions): RouteOptions => ({
        ...route,
        constraints: { ...(route.constraints as Record<string, unknown> | undefined), [devCall.name]: "yes" },
      });
      for (const endpoint of internal) {
        if (endpoint.meta.kind === "typed") server.route(withConstraint(typedRoute(endpoint, devCtx)));
      }
      // Not in the route table, so no fast lane for these: the secret is checked in Fastify's router.
      const raw = internal.filter((e) => e.meta.kind === "raw");
      registerInRawScope(server, raw, (e) => withConstraint(rawRoute(e, rawInvoker(e, devCtx))));
    },
  };
}

/**
 * The auth step of internal routes: auth data given by the dashboard is taken as the auth
 * handler's result (checked against its AuthData type), else the app's auth handler runs.
 */
function devAuthenticator(app: Authenticator | null, meta: AuthHandlerMeta | null): Authenticator {
  const check = meta ? compileAuthDataCheck(meta) : null;
  const given = (req: IncomingMessage) => (isDevCall(req) ? req.headers[devAuthDataHeader] : undefined);
  return {
    carriedBy: (req) => given(req) !== undefined || (app?.carriedBy(req) ?? false),
    authenticate: (req, query) => {
      const header = given(req);
      if (header === undefined) return app ? app.authenticate(req, query) : Promise.resolve(anonymous());
      try {
        return Promise.resolve({ authData: decodeAuthData(header, check), rejection: null });
      } catch (err) {
        return Promise.reject(err as Error);
      }
    },
  };
}

function decodeAuthData(header: string | string[], check: ((data: unknown) => string | null) | null): AuthData {
  if (check === null) throw APIError.invalidArgument("auth data given, but the app has no auth handler to define its type");
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(String(header), "base64url").toString("utf8"));
  } catch {
    throw APIError.invalidArgument(`${devAuthDataHeader} is not base64url-encoded JSON`);
  }
  const problem = check(data);
  if (problem !== null) throw APIError.invalidArgument(`the auth data does not match the auth handler's AuthData type: ${problem}`);
  return data as AuthData;
}

function anonymous(): AuthOutcome {
  return { authData: null, rejection: APIError.unauthenticated("unauthenticated") };
}
