import { AsyncLocalStorage } from "node:async_hooks";

/** What encore.dev's currentRequest() reports while a subscription handler runs. */
export interface PubSubMessageMeta {
  type: "pubsub-message";
  service: string;
  topic: string;
  subscription: string;
  messageId: string;
  deliveryAttempt: number;
  parsedPayload?: Record<string, unknown>;
}

export type RequestMeta = PubSubMessageMeta;

const current = new AsyncLocalStorage<RequestMeta>();

export function runWithRequest<T>(meta: RequestMeta, work: () => T): T {
  return current.run(meta, work);
}

export function currentRequestMeta(): RequestMeta | undefined {
  return current.getStore();
}
