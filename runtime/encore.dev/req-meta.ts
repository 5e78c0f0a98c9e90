import { currentRequestMeta, type PubSubMessageMeta } from "../internal/reqtrack/mod.ts";

export type { PubSubMessageMeta };
/** Only subscription handlers are tracked so far; API calls report undefined. */
export type RequestMeta = PubSubMessageMeta;

/** The request being handled: in a subscription handler, the message's id and delivery attempt. */
export function currentRequest(): RequestMeta | undefined {
  return currentRequestMeta();
}
