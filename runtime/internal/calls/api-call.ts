import { compileAuthDataCheck, noCredentials } from "../auth/mod.ts";
import { APIError } from "../errors/api-error.ts";
import { MiddlewareRequest } from "../middleware/middleware.ts";
import { loadAuthHandler, loadEndpoints, type Endpoint, type Handler } from "../registry/endpoints.ts";
import { ApiCallRequest } from "../reqtrack/api-call.ts";
import { currentAuthData, runWithRequest, type AuthData } from "../reqtrack/mod.ts";
import { compileCallValidator } from "../server/pipeline/request.ts";
import { recorder, type SpanRecorder } from "../tracing/mod.ts";

const validators = new Map<string, (params: unknown) => unknown>();
let authDataCheck: ((data: unknown) => string | null) | undefined;

export interface CallOptions {
  /**
   * The auth data to call with, as `CallOpts.authData` in ~encore/clients. Absent: the
   * caller's own (the request being handled). null: anonymous (cron runs).
   */
  readonly authData?: unknown;
}

/**
 * A call from one service to another, in-process: the same validation and auth rules as
 * over HTTP, then the service's middlewares and the handler, as an API call of its own
 * that carries the caller's auth data. Internal (expose: false) endpoints are callable here, and only here. Errors reach
 * the caller as APIError; anything else becomes `internal` with its cause kept. With tracing on, inside a trace, the
 * call is a "call" span and the handler a "handler" span under it.
 */
export function callEndpoint(service: string, endpoint: string, params: unknown, opts?: CallOptions): Promise<unknown> {
  const traces = recorder;
  if (traces === null) return call(service, endpoint, params, opts, null);
  return traces.call(service, endpoint, () => call(service, endpoint, params, opts, traces));
}

async function call(service: string, endpoint: string, params: unknown, opts: CallOptions | undefined, traces: SpanRecorder | null): Promise<unknown> {
  const key = `${service}.${endpoint}`;
  const target = (await loadEndpoints()).get(key);
  if (!target || target.meta.kind !== "typed") throw APIError.notFound(`no endpoint ${key}`);
  const authData = opts?.authData === undefined ? currentAuthData() : await givenAuthData(opts.authData);
  if (target.meta.auth && authData === null) throw noCredentials();
  const input = target.meta.request ? (validatorFor(key, target)(params) as Record<string, unknown>) : undefined;
  const request = new ApiCallRequest(target.meta, authData, null, null, input);
  const appHandler = target.handler as Handler;
  const handler = traces === null ? appHandler : (p: unknown) => traces.handler(target.meta, () => appHandler(p));
  const chain = target.chain ?? null;
  try {
    // The service's middlewares wrap calls from other services too: in Encore they reach
    // the endpoint through its API layer, as a request from outside does.
    if (chain) return (await runWithRequest(request, () => chain(request, new MiddlewareRequest(), () => handler(input)))).payload;
    return await runWithRequest(request, () => handler(input));
  } catch (err) {
    if (err instanceof APIError) throw err;
    throw APIError.internal(`call to ${key} failed`, err as Error);
  }
}

/** `CallOpts.authData`, checked against the auth handler's AuthData; null calls anonymously. */
export async function givenAuthData(data: unknown): Promise<AuthData | null> {
  if (data === null) return null;
  const auth = (await loadAuthHandler())?.meta;
  if (!auth) throw APIError.invalidArgument("CallOpts.authData was given, but the app has no auth handler");
  authDataCheck ??= compileAuthDataCheck(auth);
  const problem = authDataCheck(data);
  if (problem !== null) throw APIError.invalidArgument(`CallOpts.authData does not match the AuthData of auth handler ${auth.name}: ${problem}`);
  return data as AuthData;
}

function validatorFor(key: string, target: Endpoint): (params: unknown) => unknown {
  let validate = validators.get(key);
  if (!validate) {
    validate = compileCallValidator(target.meta.request!);
    validators.set(key, validate);
  }
  return validate;
}
