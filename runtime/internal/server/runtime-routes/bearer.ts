import { timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { APIError } from "../../errors/api-error.ts";

/** A check that a request carries `Bearer <token>`, compared in constant time. */
export function bearerGuard(token: string, what: string): (req: { readonly headers: IncomingHttpHeaders }) => void {
  const expected = Buffer.from(`Bearer ${token}`);
  return (req) => {
    const given = Buffer.from(req.headers.authorization ?? "");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw APIError.unauthenticated(`a valid ${what} bearer token is required`);
    }
  };
}
