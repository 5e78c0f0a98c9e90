import type { IncomingMessage, ServerResponse } from "node:http";
import type { Endpoint, Handler } from "../../registry/endpoints.ts";
import type { ErrorExtras } from "../../config/error-extras-config.ts";
import type { SpanRecorder } from "../../tracing/mod.ts";
import type { Authenticator } from "./auth.ts";

/** What every route of one server shares, settled at boot. */
export interface RouteContext {
  /** The app's auth handler, compiled; null when the app has none. */
  readonly auth: Authenticator | null;
  readonly exposeInternalErrors: boolean;
  /** internal_message and stack in error answers; none when absent. */
  readonly errorExtras?: ErrorExtras;
  readonly trustProxy: boolean;
}

/**
 * Serves one request on Node's request and response, with the router's path parameters:
 * a raw endpoint on either lane, a typed endpoint on the fast lane (typed-fast-lane.ts).
 * It answers every outcome itself, failures included.
 */
export type NodeInvoker = (req: IncomingMessage, res: ServerResponse, routeParams: Record<string, unknown>) => void;

/**
 * The endpoint's handler, in a "handler" span when tracing is on. Decided when the route
 * is compiled, as is the request span: with tracing off, a route has no tracing code at all.
 */
export function handlerOf(endpoint: Endpoint, traces: SpanRecorder | null): Handler {
  const handler = endpoint.handler as Handler;
  if (traces === null) return handler;
  return (...args: unknown[]) => traces.handler(endpoint.meta, () => handler(...args));
}
