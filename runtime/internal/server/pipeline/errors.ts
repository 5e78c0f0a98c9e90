import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import type { IncomingMessage, ServerResponse } from "node:http";
import { APIError, ErrCode, messageWithCause } from "../../errors/api-error.ts";
import { noErrorExtras, type ErrorExtras } from "../../config/error-extras-config.ts";
import { stackOf, type StackFrame } from "../../errors/error-extras.ts";
import { httpStatusOf, transportErrors } from "../../errors/http-status.ts";
import { errorChain, unavailableFor } from "../../sql/unavailable.ts";
import { unstorableTextFor } from "../../sql/unstorable-text.ts";
import { recorder } from "../../tracing/mod.ts";
import { logFailure } from "./failure-log.ts";
import { noteErrorCode } from "./raw-response.ts";

/**
 * Encore's error wire format; `internal_message` and `stack` only when ENCORE_API_INCLUDE_INTERNAL_MESSAGE
 * and ENCORE_API_INCLUDE_ERROR_STACK ask for them (config/error-extras-config.ts).
 */
export interface ErrorBody {
  code: ErrCode;
  message: string;
  details: Record<string, unknown> | null;
  internal_message?: string | null;
  stack?: StackFrame[] | null;
}

const internalMessage = "an internal error occurred";

/** A request refused for its form, before any handler runs, with the HTTP status of its kind (transportErrors). */
export class TransportError extends Error {
  constructor(
    readonly kind: keyof typeof transportErrors,
    message: string,
  ) {
    super(message);
    this.name = "TransportError";
  }
}

/**
 * Fastify's error handler: turns anything thrown while Fastify serves a request into Encore's wire format.
 * Unexpected errors are logged (failure-log.ts) and answered with a bare 500:
 * their messages may hold internals, so they leave only when exposeDetails is set.
 */
export function errorHandler(exposeDetails: boolean, extras: ErrorExtras = noErrorExtras) {
  return (err: unknown, req: FastifyRequest, reply: FastifyReply): void => {
    const { status, body } = toWire(err, exposeDetails, extras);
    logFailure(err, status, req.raw, "request failed");
    noteErrorCode(reply.raw, body.code);
    const retryAfter = retryAfterOf(body);
    if (retryAfter !== undefined) void reply.header("retry-after", retryAfter);
    void reply.code(status).type("application/json; charset=utf-8").send(body);
  };
}

/**
 * Answers a request served on Node's response (the fast lane, raw endpoints on either lane)
 * in Encore's error format, as Fastify's error handler (errorHandler) would. `what` is the
 * log line's message for a 5xx.
 */
export function failRequest(
  err: unknown,
  req: IncomingMessage,
  res: ServerResponse,
  exposeInternalErrors: boolean,
  what: string,
  extras: ErrorExtras = noErrorExtras,
): void {
  if (recorder !== null) recorder.requestFailed(err);
  const { status, body } = toWire(err, exposeInternalErrors, extras);
  logFailure(err, status, req, what);
  noteErrorCode(res, body.code);
  const text = JSON.stringify(body);
  if (!res.headersSent) {
    const retryAfter = retryAfterOf(body);
    res.writeHead(status, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(text),
      ...(retryAfter === undefined ? {} : { "retry-after": retryAfter }),
    });
  }
  res.end(text);
}

/**
 * An APIError keeps its code, and its message is followed by its cause's, as Encore answers
 * (messageWithCause). Anything unexpected (another error, or an APIError
 * coded internal or unknown, as calls between services and the auth step wrap
 * them) that comes from a lost database connection, however deeply wrapped, is
 * 503 `unavailable`: the client may retry, and load balancers can tell it from a bug.
 * One that comes from request text the database cannot store (U+0000) is 400
 * `invalid_argument`: bad input, not a failure of the service.
 * An `internal` error answers "an internal error occurred", its own message kept for
 * `internal_message` (Encore's rule, runtimes/js/src/error.rs), or put in `message` with DEBUG_ERRORS.
 */
export function toWire(thrown: unknown, exposeDetails: boolean, extras: ErrorExtras = noErrorExtras): { status: number; body: ErrorBody } {
  const err = isUnexpected(thrown) ? (unavailableFor(thrown) ?? wrappedUnavailable(thrown) ?? unstorableTextFor(thrown) ?? thrown) : thrown;
  const { status, body, internal } = answerOf(err, exposeDetails);
  if (extras.internalMessage) body.internal_message = internal;
  if (extras.stack) body.stack = err instanceof Error && (err instanceof APIError || internal !== null) ? stackOf(err) : null;
  return { status, body };
}

function answerOf(err: unknown, exposeDetails: boolean): { status: number; body: ErrorBody; internal: string | null } {
  if (err instanceof APIError) {
    const message = messageWithCause(err);
    const hidden = err.code === ErrCode.Internal && !exposeDetails;
    const body = { code: err.code, message: hidden ? internalMessage : message, details: err.details ?? null };
    return { status: httpStatusOf(err.code), body, internal: err.code === ErrCode.Internal ? message : null };
  }
  if (err instanceof TransportError) {
    const { code, status } = transportErrors[err.kind];
    return { status, body: { code, message: err.message, details: null }, internal: null };
  }
  const fastifyErr = err as Partial<FastifyError>;
  if (fastifyErr.statusCode === 413) {
    const { code, status } = transportErrors.bodyTooLarge;
    return { status, body: { code, message: "the request body is larger than this endpoint accepts", details: null }, internal: null };
  }
  // Fastify's own client errors (bad URL encoding, unreadable body, ...): their messages are safe.
  if (typeof fastifyErr.statusCode === "number" && fastifyErr.statusCode >= 400 && fastifyErr.statusCode < 500) {
    const code = fastifyErr.statusCode === 404 ? ErrCode.NotFound : ErrCode.InvalidArgument;
    return { status: httpStatusOf(code), body: { code, message: fastifyErr.message ?? "bad request", details: null }, internal: null };
  }
  const internal = err instanceof Error ? messageWithCause(err) : err === null || err === undefined ? "an unknown exception was thrown" : String(err);
  const message = exposeDetails && err instanceof Error ? err.message : internalMessage;
  return { status: 500, body: { code: ErrCode.Internal, message, details: null }, internal };
}

/**
 * The `Retry-After` header (seconds) of an error answer. Encore.ts gives a typed endpoint
 * no way to set a header on an error, so an app says how long to wait the only way it
 * can, in the error's details, and the runtime copies it to the header clients and
 * proxies read: `details.retryAfterSeconds`, a whole number of seconds, on a
 * `resource_exhausted` (429) or `unavailable` (503) error, the two statuses that header
 * is defined for (RFC 6585, RFC 9110). Under Encore the details still reach the client.
 */
export function retryAfterOf(body: ErrorBody): string | undefined {
  if (body.code !== ErrCode.ResourceExhausted && body.code !== ErrCode.Unavailable) return undefined;
  const seconds = body.details?.retryAfterSeconds;
  return Number.isSafeInteger(seconds) && (seconds as number) >= 0 ? String(seconds) : undefined;
}

/**
 * The `unavailable` APIError an unexpected error wraps as its cause: a cache that cannot
 * reach Redis throws a CacheError (what apps catch) whose cause says so.
 */
function wrappedUnavailable(err: unknown): APIError | null {
  for (const e of errorChain(err)) if (e !== err && e instanceof APIError && e.code === ErrCode.Unavailable) return e;
  return null;
}

function isUnexpected(err: unknown): boolean {
  return !(err instanceof APIError) || err.code === ErrCode.Internal || err.code === ErrCode.Unknown;
}
