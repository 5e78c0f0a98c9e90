/**
 * The one error type of the runtime and the app. Mirrors encore.dev's APIError:
 * a code from ErrCode, a message, optional details, and the cause kept.
 */
export enum ErrCode {
  OK = "ok",
  Canceled = "canceled",
  Unknown = "unknown",
  InvalidArgument = "invalid_argument",
  DeadlineExceeded = "deadline_exceeded",
  NotFound = "not_found",
  AlreadyExists = "already_exists",
  PermissionDenied = "permission_denied",
  ResourceExhausted = "resource_exhausted",
  FailedPrecondition = "failed_precondition",
  Aborted = "aborted",
  OutOfRange = "out_of_range",
  Unimplemented = "unimplemented",
  Internal = "internal",
  Unavailable = "unavailable",
  DataLoss = "data_loss",
  Unauthenticated = "unauthenticated",
}

export type ErrDetails = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- matches encore.dev

export class APIError extends Error {
  public readonly code: ErrCode;
  public readonly details?: ErrDetails;

  constructor(code: ErrCode, msg: string, cause?: Error, details?: ErrDetails) {
    super(msg, { cause });
    this.code = code;
    this.details = details;
    // Non-enumerable, like a native Error's name, so JSON and logs stay clean.
    Object.defineProperty(this, "name", { value: "APIError", enumerable: false, configurable: true });
  }

  withDetails(details: ErrDetails): APIError {
    return new APIError(this.code, this.message, this.cause as Error | undefined, details);
  }

  static canceled(msg: string, cause?: Error) { return new APIError(ErrCode.Canceled, msg, cause); }
  static unknown(msg: string, cause?: Error) { return new APIError(ErrCode.Unknown, msg, cause); }
  static invalidArgument(msg: string, cause?: Error) { return new APIError(ErrCode.InvalidArgument, msg, cause); }
  static deadlineExceeded(msg: string, cause?: Error) { return new APIError(ErrCode.DeadlineExceeded, msg, cause); }
  static notFound(msg: string, cause?: Error) { return new APIError(ErrCode.NotFound, msg, cause); }
  static alreadyExists(msg: string, cause?: Error) { return new APIError(ErrCode.AlreadyExists, msg, cause); }
  static permissionDenied(msg: string, cause?: Error) { return new APIError(ErrCode.PermissionDenied, msg, cause); }
  static resourceExhausted(msg: string, cause?: Error) { return new APIError(ErrCode.ResourceExhausted, msg, cause); }
  static failedPrecondition(msg: string, cause?: Error) { return new APIError(ErrCode.FailedPrecondition, msg, cause); }
  static aborted(msg: string, cause?: Error) { return new APIError(ErrCode.Aborted, msg, cause); }
  static outOfRange(msg: string, cause?: Error) { return new APIError(ErrCode.OutOfRange, msg, cause); }
  static unimplemented(msg: string, cause?: Error) { return new APIError(ErrCode.Unimplemented, msg, cause); }
  static internal(msg: string, cause?: Error) { return new APIError(ErrCode.Internal, msg, cause); }
  static unavailable(msg: string, cause?: Error) { return new APIError(ErrCode.Unavailable, msg, cause); }
  static dataLoss(msg: string, cause?: Error) { return new APIError(ErrCode.DataLoss, msg, cause); }
  static unauthenticated(msg: string, cause?: Error) { return new APIError(ErrCode.Unauthenticated, msg, cause); }
}

// Errors the runtime makes around another one (a lost connection, a store's refusal): their
// cause is for the log. Encore adds a cause's message to the answer, which is right for the
// causes app code gives, not for a driver's text the client has no use for.
const privateCauses = new WeakSet<Error>();

/** `err`, marked so that its cause's message stays out of the answer. */
export function withPrivateCause<E extends Error>(err: E): E {
  privateCauses.add(err);
  return err;
}

/**
 * The message Encore answers with: the error's own, then ": " and its cause's message when it
 * has a cause (runtimes/js/src/error.rs reads `cause.message` of any cause that is not null).
 */
export function messageWithCause(err: Error): string {
  const cause: unknown = err.cause;
  if (cause === undefined || cause === null || privateCauses.has(err)) return err.message;
  return `${err.message}: ${String((Object(cause) as { message?: unknown }).message)}`;
}
