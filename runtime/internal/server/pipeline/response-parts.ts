import type { FastifyReply } from "fastify";
import { validateHeaderName, validateHeaderValue } from "node:http";
import type { ResponseParts } from "../../middleware/middleware.ts";

/**
 * Puts what a typed endpoint's middlewares set (`resp.header`, `resp.status`) on its
 * reply. A header replaces one of the same name, as Encore's extra headers do. Names,
 * values and status are checked here, before anything is sent: a bad one is a bug in
 * the app, answered as an internal error, never a crash in the middle of the response.
 */
export function applyResponseParts(reply: FastifyReply, parts: ResponseParts): void {
  if (parts.headers) {
    for (const [name, value] of Object.entries(parts.headers)) {
      try {
        validateHeaderName(name);
        for (const v of Array.isArray(value) ? value : [value]) validateHeaderValue(name, v);
      } catch (err) {
        throw new Error(`a middleware set an invalid response header "${name}"`, { cause: err });
      }
      void reply.header(name, value);
    }
  }
  if (parts.status !== undefined) {
    const status = parts.status;
    if (!Number.isInteger(status) || status < 100 || status > 599) {
      throw new Error(`a middleware set the invalid HTTP status ${String(status)}`);
    }
    void reply.code(status);
  }
}
