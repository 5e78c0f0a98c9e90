// HTTP status names to numbers, as encore.dev/api exports them.
export const HttpStatus = Object.freeze({
  OK: 200,
  Created: 201,
  Accepted: 202,
  NoContent: 204,
  MovedPermanently: 301,
  Found: 302,
  NotModified: 304,
  TemporaryRedirect: 307,
  PermanentRedirect: 308,
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  PayloadTooLarge: 413,
  TooManyRequests: 429,
  InternalServerError: 500,
  NotImplemented: 501,
  ServiceUnavailable: 503,
  GatewayTimeout: 504,
} as const);
export type HttpStatus = (typeof HttpStatus)[keyof typeof HttpStatus];
