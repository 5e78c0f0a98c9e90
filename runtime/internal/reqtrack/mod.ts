import { AsyncLocalStorage } from "node:async_hooks";
import type { EventEmitter } from "node:events";
import type { BaseRequestMeta, PubSubMessageMeta, RequestMeta } from "./meta.ts";

export type { APICallMeta, APIDesc, BaseRequestMeta, Method, PubSubMessageMeta, RequestMeta, TraceData } from "./meta.ts";

/** What an auth handler returned for an authenticated caller: at least a userID. */
export type AuthData = { readonly userID: string } & Readonly<Record<string, unknown>>;

/** What is tracked while one request (API call, pub/sub message, auth handler run) is handled. */
export interface TrackedRequest {
  /** The caller's auth data: null when anonymous, and always for pub/sub messages, cron runs and the auth handler itself. */
  readonly authData: AuthData | null;
  /** What currentRequest() reports; undefined where encore.dev reports nothing (while the auth handler runs). */
  requestMeta(): RequestMeta | undefined;
}

const current = new AsyncLocalStorage<TrackedRequest>();

/** Runs `work`, and everything it starts, as part of `request`. */
export function runWithRequest<T>(request: TrackedRequest, work: () => T): T {
  return current.run(request, work);
}

/**
 * Makes every event `emitter` emits run as part of `request`. For a raw request's body:
 * Node emits its data and end events from the connection, outside the context the
 * handler ran in, so without this a body callback would see no auth data.
 */
export function bindEvents(emitter: EventEmitter, request: TrackedRequest): void {
  const emit = emitter.emit;
  emitter.emit = (...args: Parameters<EventEmitter["emit"]>) => current.run(request, () => emit.apply(emitter, args));
}

/** The request being handled, or undefined outside any. */
export function currentRequest(): TrackedRequest | undefined {
  return current.getStore();
}

export function currentAuthData(): AuthData | null {
  return current.getStore()?.authData ?? null;
}

export function currentRequestMeta(): RequestMeta | undefined {
  return current.getStore()?.requestMeta();
}

/** A subscription handler's delivery: no caller, so no auth data. */
export function pubsubDelivery(meta: PubSubMessageMeta & BaseRequestMeta): TrackedRequest {
  return { authData: null, requestMeta: () => meta };
}

/** While the auth handler runs: no auth data yet, and currentRequest() is undefined, as in encore.dev. */
export const authHandlerRun: TrackedRequest = Object.freeze({ authData: null, requestMeta: () => undefined });
