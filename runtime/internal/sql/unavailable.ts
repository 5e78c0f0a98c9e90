import { APIError, ErrCode, withPrivateCause } from "../errors/api-error.ts";

// SQLSTATEs meaning "the server cannot serve you now": connection exceptions (class
// 08), the server shutting down or starting up, or out of connection slots.
const unavailableStates = new Set(["57P01", "57P02", "57P03", "53300"]);
const socketErrors = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
// node-postgres reports a lost or unusable connection, and its own timeouts, with
// plain Errors; these are their messages.
const clientMessages = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "timeout expired",
  "Query read timeout",
  "Client has encountered a connection error and is not queryable",
  "Cannot use a pool after calling end on the pool",
];

/** How many wrapped errors are looked at, at most: chains are short, and a cycle must end. */
const maxLinks = 32;

/**
 * `err` and every error it wraps, outermost first: causes (drizzle's
 * DrizzleQueryError, APIError.internal(msg, cause)), an AggregateError's errors
 * (Node's attempts at each address of a host), a SuppressedError's two (an
 * `await using` whose disposal failed too).
 */
export function* errorChain(err: unknown): Generator<object> {
  const queue: unknown[] = [err];
  const seen = new Set<object>();
  while (queue.length > 0 && seen.size < maxLinks) {
    const e = queue.shift();
    if (e === null || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    yield e;
    const { cause, errors, name, error, suppressed } = e as { cause?: unknown; errors?: unknown; name?: unknown; error?: unknown; suppressed?: unknown };
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...(errors as unknown[]));
    if (name === "SuppressedError") queue.push(error, suppressed);
  }
}

/** Whether `err`, or any error it wraps, says the database cannot be reached. */
export function isConnectionFailure(err: unknown): boolean {
  for (const e of errorChain(err)) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (code.startsWith("08") || unavailableStates.has(code) || socketErrors.has(code))) return true;
    if (typeof message === "string" && clientMessages.some((m) => message.startsWith(m))) return true;
  }
  return false;
}

/** A connection failure as Encore's 503 `unavailable`, keeping it as the cause; other errors unchanged. */
export function asUnavailable(err: unknown, database: string): unknown {
  if (err instanceof APIError || !isConnectionFailure(err)) return err;
  return withPrivateCause(APIError.unavailable(`database ${database} is unavailable`, err as Error));
}

/**
 * What an unexpected error (anything but an APIError with a code of its own) that
 * comes from a lost database connection is answered with: the `unavailable` APIError
 * it wraps (the runtime's driver makes those), or a new one around it, from a
 * client the runtime does not see (drizzle's pool). Null for other errors.
 */
export function unavailableFor(err: unknown): APIError | null {
  if (!isConnectionFailure(err)) return null;
  for (const e of errorChain(err)) if (e instanceof APIError && e.code === ErrCode.Unavailable) return e;
  return withPrivateCause(APIError.unavailable("the database is unavailable; please retry", err as Error));
}
