import { describe, expect, test } from "vitest";
import { APIError, ErrCode } from "./api-error.ts";
import { httpStatusOf } from "./http-status.ts";

describe("APIError", () => {
  test("every code has a static constructor that keeps the cause", () => {
    const cause = new Error("root cause");
    const ctors = Object.getOwnPropertyNames(APIError).filter((k) => typeof (APIError as never)[k] === "function");
    expect(ctors.length).toBe(Object.values(ErrCode).length - 1); // all but OK
    for (const name of ctors) {
      const err = (APIError as unknown as Record<string, (m: string, c: Error) => APIError>)[name]!("msg", cause);
      expect(err).toBeInstanceOf(APIError);
      expect(err.cause).toBe(cause);
      expect(Object.values(ErrCode)).toContain(err.code);
    }
  });

  test("withDetails keeps code, message and cause", () => {
    const cause = new Error("x");
    const err = APIError.notFound("gone", cause).withDetails({ id: 1 });
    expect(err).toMatchObject({ code: "not_found", message: "gone", details: { id: 1 } });
    expect(err.cause).toBe(cause);
  });

  test("all 17 codes map to Encore's HTTP statuses", () => {
    expect(Object.fromEntries(Object.values(ErrCode).map((c) => [c, httpStatusOf(c)]))).toEqual({
      ok: 200, canceled: 499, unknown: 500, invalid_argument: 400, deadline_exceeded: 504, not_found: 404,
      already_exists: 409, permission_denied: 403, resource_exhausted: 429, failed_precondition: 400, aborted: 409,
      out_of_range: 400, unimplemented: 501, internal: 500, unavailable: 503, data_loss: 500, unauthenticated: 401,
    });
  });
});
