import { APIError } from "../errors/api-error.ts";

// SQLSTATEs meaning "the server cannot serve you now": connection exceptions (class
// 08), the server shutting down or starting up, or out of connection slots.
const unavailableStates = new Set(["57P01", "57P02", "57P03", "53300"]);
const socketErrors = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
// node-postgres reports a lost or unusable connection, and its own timeouts, with
// plain Errors; these are their messages.
const clientMessages = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Query read timeout",
  "Client has encountered a connection error and is not queryable",
  "Cannot use a pool after calling end on the pool",
];

/** Whether `err` (or an error it wraps, as drizzle's do) says the database cannot be reached. */
export function isConnectionFailure(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (code.startsWith("08") || unavailableStates.has(code) || socketErrors.has(code))) return true;
    if (typeof message === "string" && clientMessages.some((m) => message.startsWith(m))) return true;
  }
  return false;
}

/** A connection failure as Encore's 503 `unavailable`, keeping it as the cause; other errors unchanged. */
export function asUnavailable(err: unknown, database: string): unknown {
  if (err instanceof APIError || !isConnectionFailure(err)) return err;
  return APIError.unavailable(`database ${database} is unavailable`, err as Error);
}
