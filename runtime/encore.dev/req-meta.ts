import { currentRequestMeta, type RequestMeta } from "../internal/reqtrack/mod.ts";

export type { APICallMeta, APIDesc, BaseRequestMeta, Method, PubSubMessageMeta, RequestMeta, TraceData } from "../internal/reqtrack/mod.ts";

/**
 * The request being handled: an API call (endpoint, method, path, headers, ...) or a
 * pub/sub message (topic, message id, delivery attempt). Undefined outside any request,
 * and while the auth handler runs, as in encore.dev.
 * @example
 * const req = currentRequest();
 * if (req?.type === "api-call") log.info("serving", { path: req.path });
 */
export function currentRequest(): RequestMeta | undefined {
  return currentRequestMeta();
}
