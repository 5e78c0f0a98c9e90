// encore.dev/api's middleware surface: a middleware is a function of the request
// and `next`; the runtime picks, per endpoint at boot, which of a service's middlewares
// apply (targets.ts) and runs them around the handler (chain.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import { currentRequestMeta, type RequestMeta } from "../reqtrack/mod.ts";

/** Which endpoints of the service a middleware runs for; every condition set must hold. */
export interface MiddlewareOptions {
  target?: {
    /** Only exposed endpoints (true) or only internal ones (false). */
    expose?: boolean;
    /** Only endpoints that require auth (true) or only those that do not (false). */
    auth?: boolean;
    /** Only raw endpoints (true) or only the others (false). */
    isRaw?: boolean;
    /** Only streaming endpoints (true) or only the others (false). */
    isStream?: boolean;
    /** Only endpoints with at least one of these tags. */
    tags?: string[];
  };
}

/** Streams are refused at generation by this runtime, so `stream` is never set. */
type MiddlewareStream = never;

/** What a middleware gets about the request it wraps. */
export class MiddlewareRequest {
  #stream: MiddlewareStream | undefined;
  #rawReq: IncomingMessage | undefined;
  #rawResp: ServerResponse | undefined;
  #data: Record<string, any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any -- as in encore.dev
  #meta: RequestMeta | undefined;

  constructor(stream?: MiddlewareStream, rawReq?: IncomingMessage, rawResp?: ServerResponse) {
    this.#stream = stream;
    this.#rawReq = rawReq;
    this.#rawResp = rawResp;
  }

  /** The API call being handled, as currentRequest() reports it. */
  get requestMeta(): RequestMeta | undefined {
    this.#meta ??= currentRequestMeta();
    return this.#meta;
  }

  /** The stream of a streaming endpoint. */
  get stream(): MiddlewareStream | undefined {
    return this.#stream;
  }

  /** Node's request, for raw endpoints. */
  get rawRequest(): IncomingMessage | undefined {
    return this.#rawReq;
  }

  /** Node's response, for raw endpoints: headers set on it reach the client. */
  get rawResponse(): ServerResponse | undefined {
    return this.#rawResp;
  }

  /**
   * Values for the handler: what the request passed to the last `next` holds here, the
   * handler reads as `currentRequest().middlewareData`.
   */
  get data(): Record<string, any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- as in encore.dev
    this.#data ??= {};
    return this.#data;
  }
}

/** Headers a middleware adds to a typed endpoint's response. */
export class ResponseHeader {
  headers: Record<string, string | string[]> = {};

  /** Sets a header, replacing what an earlier middleware set. */
  set(key: string, value: string | string[]): void {
    this.headers[key] = value;
  }

  /** Adds a value to a header, after what an earlier middleware set. */
  add(key: string, value: string | string[]): void {
    const previous = this.headers[key];
    this.headers[key] = previous === undefined ? value : [previous, value].flat();
  }
}

/** What the parts of a response are, for the runtime that sends it. */
export interface ResponseParts {
  readonly payload: unknown;
  readonly headers: Record<string, string | string[]> | undefined;
  readonly status: number | undefined;
}

let partsOf: (resp: HandlerResponse) => ResponseParts;

/** What `next` resolves to: the handler's result, which a middleware may amend or replace. */
export class HandlerResponse {
  /** The typed handler's result. */
  payload: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- as in encore.dev
  #header: ResponseHeader | undefined;
  #status: number | undefined;

  constructor(payload: any) { // eslint-disable-line @typescript-eslint/no-explicit-any -- as in encore.dev
    this.payload = payload;
  }

  /** Extra response headers; typed endpoints only (a raw handler writes its own). */
  get header(): ResponseHeader {
    this.#header ??= new ResponseHeader();
    return this.#header;
  }

  /** The HTTP status of a typed endpoint's successful response, instead of 200. */
  set status(status: number) {
    this.#status = status;
  }

  static {
    // Read by the runtime only: the public class, like encore.dev's, has no status getter.
    partsOf = (resp) => ({ payload: resp.payload, headers: resp.#header?.headers, status: resp.#status });
  }
}

/** The parts of a response a middleware chain resolved to. */
export function responseParts(resp: HandlerResponse): ResponseParts {
  return partsOf(resp);
}

export type Next = (req: MiddlewareRequest) => Promise<HandlerResponse>;

export type MiddlewareFn = (req: MiddlewareRequest, next: Next) => Promise<HandlerResponse>;

export interface Middleware extends MiddlewareFn {
  options?: MiddlewareOptions;
}

/**
 * Declares a middleware, to list in `new Service(name, { middlewares: [...] })`.
 * @example
 * const requestId = middleware({ target: { expose: true } }, async (req, next) => {
 *   const resp = await next(req);
 *   resp.header.set("x-served-by", "api");
 *   return resp;
 * });
 */
export function middleware(fn: MiddlewareFn): Middleware;
export function middleware(options: MiddlewareOptions, fn: MiddlewareFn): Middleware;
export function middleware(a: MiddlewareFn | MiddlewareOptions, b?: MiddlewareFn): Middleware {
  if (b === undefined) return a as Middleware;
  // A function of its own: the same fn may be declared twice with different targets.
  const declared: Middleware = (req, next) => b(req, next);
  declared.options = Object.freeze({ ...(a as MiddlewareOptions) });
  return declared;
}
