// A call from another service hands over JavaScript values: a Date goes in where the
// endpoint's type says Date, as Encore passes it on as a date-time, and the caller's
// object is left as it was.
import { expect, test } from "vitest";
import type { JSONSchema, RequestMeta } from "../../meta/types.ts";
import { DATE_SCHEMA } from "../../parser/schema/schema.ts";
import { compileCallValidator } from "./request.ts";

const full: JSONSchema = {
  type: "object",
  properties: { at: DATE_SCHEMA, until: { anyOf: [DATE_SCHEMA, { type: "null" }] }, all: { type: "array", items: DATE_SCHEMA } },
  required: ["at"],
  additionalProperties: false,
};
const meta = { fields: [], path: null, query: null, headers: null, body: full, full } as unknown as RequestMeta;
const validate = compileCallValidator(meta);

test("Date values are taken where the type says Date, and arrive as Dates", () => {
  const at = new Date("2030-01-02T03:04:05.678Z");
  const params = { at, until: null, all: [at, "2031-01-01T00:00:00Z"] };
  const input = validate(params) as { at: Date; until: null; all: Date[] };
  expect(input.at).toBeInstanceOf(Date);
  expect(input.at.toISOString()).toBe("2030-01-02T03:04:05.678Z");
  expect(input.all.map((d) => d.toISOString())).toEqual(["2030-01-02T03:04:05.678Z", "2031-01-01T00:00:00.000Z"]);
  expect(params.all[1]).toBe("2031-01-01T00:00:00Z"); // the caller's object is unchanged
});

test("an invalid Date, or another object, is refused as an HTTP request's would be", () => {
  expect(() => validate({ at: new Date("not a date") })).toThrow(/at/);
  expect(() => validate({ at: { year: 2030 } })).toThrow(/at/);
});
