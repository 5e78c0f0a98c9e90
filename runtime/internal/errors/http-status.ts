import { ErrCode } from "./api-error.ts";

/**
 * The one place where error codes meet HTTP statuses. Values are Encore's
 * (the same table its Go and Rust runtimes use), so clients see no difference.
 */
const statusByCode: Readonly<Record<ErrCode, number>> = Object.freeze({
  [ErrCode.OK]: 200,
  [ErrCode.Canceled]: 499,
  [ErrCode.Unknown]: 500,
  [ErrCode.InvalidArgument]: 400,
  [ErrCode.DeadlineExceeded]: 504,
  [ErrCode.NotFound]: 404,
  [ErrCode.AlreadyExists]: 409,
  [ErrCode.PermissionDenied]: 403,
  [ErrCode.ResourceExhausted]: 429,
  [ErrCode.FailedPrecondition]: 400,
  [ErrCode.Aborted]: 409,
  [ErrCode.OutOfRange]: 400,
  [ErrCode.Unimplemented]: 501,
  [ErrCode.Internal]: 500,
  [ErrCode.Unavailable]: 503,
  [ErrCode.DataLoss]: 500,
  [ErrCode.Unauthenticated]: 401,
});

export function httpStatusOf(code: ErrCode): number {
  return statusByCode[code] ?? 500;
}

/**
 * Transport-level failures that happen before any handler runs. They have no
 * Encore code of their own, so each gets the nearest code, and the status HTTP
 * clients and proxies expect for it.
 */
export const transportErrors = Object.freeze({
  bodyTooLarge: { code: ErrCode.ResourceExhausted, status: 413 },
  lengthRequired: { code: ErrCode.InvalidArgument, status: 411 },
});
