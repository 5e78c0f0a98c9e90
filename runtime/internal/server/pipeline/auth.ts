import type { IncomingMessage } from "node:http";
import { parse as parseQuery } from "node:querystring";
import { compileAuthDataCheck, noCredentials } from "../../auth/mod.ts";
import { APIError, ErrCode } from "../../errors/api-error.ts";
import type { AuthHandlerEntry } from "../../registry/endpoints.ts";
import { authHandlerRun, runWithRequest, type AuthData } from "../../reqtrack/mod.ts";
import { recorder } from "../../tracing/mod.ts";
import { carriesCookie, carriesHeader, carriesQueryParam } from "./auth-presence.ts";
import { settleForwardedFor } from "./client-address.ts";
import { compileRequestDecoder } from "./request.ts";

type Source = Record<string, unknown>;

/** The auth handler's verdict: auth data, or anonymous with the error an `auth: true` endpoint answers. */
export type AuthOutcome = { readonly authData: AuthData; readonly rejection: null } | { readonly authData: null; readonly rejection: APIError };

export interface Authenticator {
  /** Whether the request carries at least one of the handler's parameters. Allocates nothing. */
  carriedBy(req: IncomingMessage): boolean;
  /**
   * Runs the handler on the request's parameters (`query` as already parsed, or null to
   * parse it here). `unauthenticated` and null become an anonymous outcome; any other
   * failure rejects, and aborts the request.
   */
  authenticate(req: IncomingMessage, query: Source | null): Promise<AuthOutcome>;
}

/** Compiles, at boot, everything the auth step needs: parameter names, validators, the AuthData check. */
export function compileAuthenticator(entry: AuthHandlerEntry, trustProxy: boolean): Authenticator {
  const { meta, handler } = entry;
  const label = `auth handler ${meta.service}.${meta.name}`;
  const headerNames = meta.params.fields.filter((f) => f.location === "header").map((f) => f.wireName);
  const queryNames = meta.params.fields.filter((f) => f.location === "query").map((f) => f.wireName);
  const cookieNames = meta.params.fields.filter((f) => f.location === "cookie").map((f) => f.wireName);
  const readsForwardedFor = headerNames.includes("x-forwarded-for");
  const decode = compileRequestDecoder(meta.params);
  const checkAuthData = compileAuthDataCheck(meta);
  const empty: Source = Object.freeze({});
  // In a request of its own: no auth data, and calls it makes to other services are anonymous.
  const runHandler = (params: Source) => runWithRequest(authHandlerRun, () => handler(params));
  // Decided at boot, as the routes decide: with tracing on, the handler runs in an "auth" span.
  const traces = recorder;
  const runTraced = traces === null ? runHandler : (params: Source) => traces.auth(meta, () => runHandler(params));

  const run = async (params: Source): Promise<AuthOutcome> => {
    let result: unknown;
    try {
      result = await runTraced(params);
    } catch (err) {
      if (err instanceof APIError && err.code === ErrCode.Unauthenticated) return { authData: null, rejection: err };
      if (err instanceof APIError) throw err;
      throw APIError.internal(`${label} failed`, err as Error);
    }
    if (result === null || result === undefined) return { authData: null, rejection: APIError.unauthenticated("unauthenticated") };
    const problem = checkAuthData(result);
    if (problem !== null) throw APIError.internal(`${label} returned auth data that does not match its AuthData type: ${problem}`);
    return { authData: result as AuthData, rejection: null };
  };

  return {
    carriedBy: (req) =>
      (headerNames.length > 0 && carriesHeader(req.rawHeaders, headerNames)) ||
      (queryNames.length > 0 && carriesQueryParam(req.url ?? "", queryNames)) ||
      (cookieNames.length > 0 && carriesCookie(req.rawHeaders, cookieNames)),
    authenticate: (req, query) => {
      let params: Source;
      try {
        if (readsForwardedFor) settleForwardedFor(req, trustProxy);
        const url = req.url ?? "";
        const parsed = queryNames.length === 0 ? empty : (query ?? (parseQuery(url.slice(url.indexOf("?") + 1)) as Source));
        params = decode({ path: empty, query: parsed, headers: req.headers as Source, body: undefined });
      } catch (err) {
        return Promise.reject(err as Error);
      }
      return run(params);
    },
  };
}

/** The auth step of one endpoint: what to do with a request before its handler runs. */
export type AuthStep = (req: IncomingMessage, query: Source | null) => Promise<AuthData | null> | null;

/**
 * Compiled per endpoint at boot. Returns null synchronously when the request has no auth
 * parameters and the endpoint does not need any (the hot path: no promise, no work);
 * the caller's auth data, or null for an anonymous caller, once the handler has run;
 * and throws, or rejects, with the error that aborts the request.
 */
export function compileAuthStep(requiresAuth: boolean, auth: Authenticator | null): AuthStep {
  if (auth === null) {
    return requiresAuth
      ? () => {
          throw noCredentials();
        }
      : () => null;
  }
  return (req, query) => {
    if (!auth.carriedBy(req)) {
      if (requiresAuth) throw noCredentials();
      return null;
    }
    return auth.authenticate(req, query).then((outcome) => {
      if (outcome.authData === null && requiresAuth) throw outcome.rejection;
      return outcome.authData;
    });
  };
}
