// encore.dev/api: declarations are inert, as in Encore: api() returns the handler
// unchanged, and the runtime registers endpoints from the generated metadata at boot.
import type { IncomingMessage, ServerResponse } from "node:http";

export { APIError, ErrCode } from "../../internal/errors/api-error.ts";
export type { ErrDetails } from "../../internal/errors/api-error.ts";
export { Gateway } from "./gateway.ts";
export { HandlerResponse, middleware, MiddlewareRequest, ResponseHeader } from "../../internal/middleware/middleware.ts";
export type { Middleware, MiddlewareFn, MiddlewareOptions, Next } from "../../internal/middleware/middleware.ts";
export type { GatewayConfig } from "./gateway.ts";
import { streamIn, streamInOut, streamOut } from "./stream.ts";
export { IterableSocket, IterableStream, Sink } from "./stream.ts";
export type {
  StreamIn,
  StreamInHandlerFn,
  StreamInOut,
  StreamInOutHandlerFn,
  StreamOptions,
  StreamOut,
  StreamOutHandlerFn,
  StreamOutWithResponse,
} from "./stream.ts";

export type Method = "GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "HEAD" | "OPTIONS" | "TRACE" | "CONNECT";

// The Name parameters are unused by the types themselves: the parser reads them as
// the wire name, as Encore's does.
/* eslint-disable @typescript-eslint/no-unused-vars */

/** A request field read from an HTTP header: `Header<"X-Request-Id">` or `Header<number, "X-Count">`. */
export type Header<TypeOrName extends string | number | boolean | Date = string, Name extends string = ""> =
  TypeOrName extends string ? string : TypeOrName;

/** A request field read from the query string, whatever the method. */
export type Query<
  TypeOrName extends string | string[] | number | number[] | boolean | boolean[] | Date | Date[] = string,
  Name extends string = "",
> = TypeOrName extends string ? string : TypeOrName;

export type CookieWithOptions<T> = {
  value: T;
  expires?: Date;
  sameSite?: "Strict" | "Lax" | "None";
  domain?: string;
  path?: string;
  maxAge?: number;
  secure?: boolean;
  httpOnly?: boolean;
  partitioned?: boolean;
};

export type Cookie<TypeOrName extends string | number | boolean | Date = string, Name extends string = ""> =
  TypeOrName extends string ? CookieWithOptions<string> : CookieWithOptions<TypeOrName>;

/* eslint-enable @typescript-eslint/no-unused-vars */

export interface APIOptions {
  /** HTTP method(s) to match; "*" matches any. Defaults to POST. */
  method?: Method | Method[] | "*";
  /** Request path; `:name` for a segment parameter, `*name` for the rest. Defaults to `/<service>.<endpoint>`. */
  path?: string;
  /** Reachable from outside the app. Defaults to false. */
  expose?: boolean;
  /** Requires an authenticated caller. Defaults to false. */
  auth?: boolean;
  /** Maximum body size in bytes; null for unlimited. Defaults to 2 MiB. */
  bodyLimit?: number | null;
  tags?: string[];
  sensitive?: boolean;
}

export interface StaticOptions {
  path?: string;
  expose?: boolean;
  auth?: boolean;
  /** Folder to serve, relative to the declaring file. */
  dir: string;
  notFound?: string;
  notFoundStatus?: number;
  headers?: Record<string, string | string[]>;
}

export class StaticAssets {
  public readonly options: StaticOptions;
  constructor(options: StaticOptions) {
    this.options = options;
  }
}

// The classes of the request and response raw handlers and middlewares are given, as
// encore.dev exports its own: `req instanceof RawRequest` holds, as under Encore. Here
// they are Node's, each with what the server adds (an id, Encore's lenient header writes).
export { IdentifiedRequest as RawRequest } from "../../internal/reqtrack/request-id.ts";
export { RawResponse } from "../../internal/server/pipeline/raw-response.ts";
export type RawHandler = (req: IncomingMessage, resp: ServerResponse) => void;

type HandlerFn<Params, Response> = Params extends void
  ? () => Promise<Response>
  : (params: Params) => Promise<Response>;

/**
 * Declares an endpoint. The runtime serves it from the generated metadata.
 * @example
 * export const get = api({ expose: true, method: "GET", path: "/url/:id" },
 *   async ({ id }: { id: string }): Promise<URL> => { ... });
 */
export function api<Params extends object | void = void, Response extends object | void = void>(
  options: APIOptions,
  fn: (params: Params) => Promise<Response>,
): HandlerFn<Params, Response>;
export function api<Params extends object | void = void, Response extends object | void = void>(
  options: APIOptions,
  fn: (params: Params) => Response,
): HandlerFn<Params, Response>;
export function api(_options: APIOptions, fn: unknown): unknown {
  return fn;
}

/** Declares an endpoint that gets the raw Node.js request and response. */
api.raw = function raw(_options: APIOptions, fn: RawHandler): RawHandler {
  return fn;
};

/** Declares a folder of static files served at a path. */
api.static = function staticAssets(options: StaticOptions): StaticAssets {
  return new StaticAssets(options);
};

api.streamIn = streamIn;
api.streamOut = streamOut;
api.streamInOut = streamInOut;

/** Options for calls through ~encore/clients. Empty, as in encore.dev; generated code may extend it. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CallOpts {}

export { HttpStatus, HttpStatusValues } from "./http-status.ts";
