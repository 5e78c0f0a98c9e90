// How thrown errors become Encore's wire format, for failures of the database above all.
import pg from "pg";
import { beforeAll, describe, expect, test } from "vitest";
import { refusedConnection } from "../../../test/closed-port.ts";
import { APIError } from "../../errors/api-error.ts";
import { asUnavailable } from "../../sql/unavailable.ts";
import { retryAfterOf, toWire } from "./errors.ts";

let refused: Error;
/** What PostgreSQL answers to a text parameter holding U+0000. */
let nulInText: Error;
beforeAll(async () => {
  refused = await refusedConnection();
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  nulInText = await client.query("SELECT $1::text", ["a\u0000b"]).then(
    () => new Error("expected PostgreSQL to refuse U+0000"),
    (err: Error) => err,
  );
  await client.end();
});

describe("toWire", () => {
  test("a connection failure thrown as it is, from a client the runtime does not see, is 503 unavailable", () => {
    expect(toWire(refused, false)).toEqual({
      status: 503,
      body: { code: "unavailable", message: "the database is unavailable; please retry", details: null },
    });
  });

  test("wrapped as internal by a call between services and the auth step, it is still 503, with the driver's message", () => {
    const wrapped = APIError.internal("auth handler failed", APIError.internal("call to users.exists failed", asUnavailable(refused, "users") as Error));
    expect(toWire(wrapped, false)).toEqual({
      status: 503,
      body: { code: "unavailable", message: "database users is unavailable", details: null },
    });
  });

  test("an APIError with a code of its own keeps it, whatever its cause", () => {
    expect(toWire(APIError.notFound("url not found", refused), false)).toMatchObject({ status: 404, body: { code: "not_found" } });
  });

  test("text the database cannot store (U+0000 from a request field) is 400 invalid_argument, however wrapped", () => {
    expect(nulInText).toMatchObject({ code: "22021" });
    const answer = { status: 400, body: { code: "invalid_argument", message: "a text value holds a character the database cannot store (such as U+0000)", details: null } };
    expect(toWire(nulInText, false)).toEqual(answer);
    expect(toWire(APIError.internal("call to users.create failed", nulInText), false)).toEqual(answer);
  });

  test("any other failure is 500 internal, its message hidden", () => {
    expect(toWire(new Error("password=hunter2"), false)).toEqual({
      status: 500,
      body: { code: "internal", message: "an internal error occurred", details: null },
    });
  });
});

describe("retryAfterOf", () => {
  test("details.retryAfterSeconds of a 429 or 503 becomes the Retry-After header", () => {
    const limited = toWire(APIError.resourceExhausted("slow down").withDetails({ retryAfterSeconds: 42 }), false);
    expect(limited.status).toBe(429);
    expect(retryAfterOf(limited.body)).toBe("42");
    expect(retryAfterOf(toWire(APIError.unavailable("busy").withDetails({ retryAfterSeconds: 0 }), false).body)).toBe("0");
  });

  test("nothing for other codes, other details, or a value that is not a whole number of seconds", () => {
    expect(retryAfterOf(toWire(APIError.invalidArgument("no").withDetails({ retryAfterSeconds: 5 }), false).body)).toBeUndefined();
    expect(retryAfterOf(toWire(APIError.resourceExhausted("slow down"), false).body)).toBeUndefined();
    for (const value of [1.5, -1, "5", "5\r\nx-injected: 1", null]) {
      expect(retryAfterOf(toWire(APIError.resourceExhausted("slow down").withDetails({ retryAfterSeconds: value }), false).body)).toBeUndefined();
    }
  });
});
