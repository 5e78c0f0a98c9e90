// How thrown errors become Encore's wire format, for failures of the database above all.
import pg from "pg";
import { beforeAll, describe, expect, test } from "vitest";
import { refusedConnection } from "../../../test/closed-port.ts";
import { APIError } from "../../errors/api-error.ts";
import { asUnavailable } from "../../sql/unavailable.ts";
import { retryAfterOf, toWire, TransportError } from "./errors.ts";

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

describe("Encore's answers for causes, internal_message and stack (runtimes/js/src/error.rs, runtimes/core/src/api/error.rs)", () => {
  const both = { internalMessage: true, stack: true };

  test("an APIError's cause follows its message, details kept", () => {
    const err = APIError.canceled("the error", new Error("this is the cause")).withDetails({ a: "detail" });
    expect(toWire(err, false)).toEqual({ status: 499, body: { code: "canceled", message: "the error: this is the cause", details: { a: "detail" } } });
  });

  test("a cause the runtime keeps for its log stays out of the answer", () => {
    expect(toWire(asUnavailable(refused, "url"), false).body.message).toBe("database url is unavailable");
  });

  test("internal_message: null for an APIError of another code; the message, cause and all, for an internal one", () => {
    expect(toWire(APIError.notFound("gone"), false, { internalMessage: true, stack: false }).body).toEqual({
      code: "not_found", message: "gone", details: null, internal_message: null,
    });
    expect(toWire(APIError.internal("broke", new Error("disk full")), false, { internalMessage: true, stack: false }).body).toEqual({
      code: "internal", message: "an internal error occurred", details: null, internal_message: "broke: disk full",
    });
  });

  test("an ordinary Error is internal, its message in internal_message", () => {
    const { status, body } = toWire(new Error("This is a test error"), false, both);
    expect(status).toBe(500);
    expect(body).toMatchObject({ code: "internal", message: "an internal error occurred", details: null, internal_message: "This is a test error" });
    // Made here, in the runtime's own folder, whose frames are left out as Encore leaves out its SDK's.
    expect(body.stack?.map((frame) => frame.file).filter((file) => file.startsWith("runtime/"))).toEqual([]);
  });

  test("a stack frame is Encore's: the file relative to the working folder, the line, the function", () => {
    const err = new Error("x");
    err.stack = [
      "Error: x",
      `    at handler (${process.cwd()}/svc/api.ts:12:7)`,
      "    at file:///srv/app/other.ts:3:1",
      "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
      `    at run (${process.cwd()}/node_modules/encore.dev/api/mod.js:40:9)`,
    ].join("\n");
    expect(toWire(err, false, both).body.stack).toEqual([
      { file: "svc/api.ts", line: 12, func: "handler" },
      { file: "/srv/app/other.ts", line: 3, func: null },
    ]);
  });

  test("neither field without the variables; a null stack for a refusal no code threw", () => {
    expect(Object.keys(toWire(new Error("x"), false).body)).toEqual(["code", "message", "details"]);
    expect(toWire(new TransportError("lengthRequired", "a length is required"), false, both).body).toMatchObject({ internal_message: null, stack: null });
  });
});
