// Encore's words for refused values, each from its source (runtimes/core/src/api/jsonschema,
// schema/{body,query,path}.rs): the validators are the runtime's own (ajv), the texts Encore's.
import { describe, expect, test } from "vitest";
import type { JSONSchema } from "../meta/types.ts";
import { compileValidator, describeValidationErrors, type DataSource } from "./ajv.ts";

const str: JSONSchema = { type: "string" };
const num: JSONSchema = { type: "number" };

function messageFor(schema: JSONSchema, location: DataSource, data: unknown): string {
  const validate = compileValidator(schema, location);
  expect(validate(data)).toBe(false);
  return describeValidationErrors(validate.errors, location, data);
}

const body = (properties: Record<string, JSONSchema>, required: string[] = Object.keys(properties)): JSONSchema => ({ type: "object", properties, required });

describe("a request body", () => {
  test.each<[string, JSONSchema, unknown, string]>([
    ["MinLen", body({ message: { type: "string", minLength: 3 } }), { message: "Hi" }, "message: length too short (got 2, expected at least 3)"],
    ["MaxLen, in UTF-8 bytes as Rust counts", body({ name: { type: "string", maxLength: 3 } }), { name: "héllo" }, "name: length too long (got 6, expected at most 3)"],
    ["MinLen of an array", body({ tags: { type: "array", items: str, minItems: 1 } }), { tags: [] }, "tags: length too short (got 0, expected at least 1)"],
    ["Min", body({ age: { type: "number", minimum: 18 } }), { age: 3 }, "age: value must be at least 18 (got 3)"],
    ["Max", body({ age: { type: "number", maximum: 1.5 } }), { age: 2.25 }, "age: value must be at most 1.5 (got 2.25)"],
    ["IsEmail", body({ to: { type: "string", format: "email" } }), { to: "not-an-email" }, "to: value is not an email"],
    ["IsURL", body({ site: { type: "string", format: "uri" } }), { site: "nope" }, "site: value is not a url"],
    ["MatchesRegexp", body({ code: { type: "string", pattern: "^[a-z]+$", "x-encore-validate": { kind: "matchesRegexp", value: "^[a-z]+$" } } }), { code: "A1" }, 'code: value does not match the regexp "^[a-z]+$"'],
    ["StartsWith", body({ id: { type: "string", pattern: "^usr_", "x-encore-validate": { kind: "startsWith", value: "usr_" } } }), { id: "x" }, 'id: value does not start with "usr_"'],
    ["EndsWith", body({ file: { type: "string", pattern: "\\.png$", "x-encore-validate": { kind: "endsWith", value: ".png" } } }), { file: "a.gif" }, 'file: value does not end with ".png"'],
    ["a number for a string", body({ url: str }), { url: 5 }, "url: invalid type: integer `5`, expected a string"],
    ["a string for a number", body({ n: num }), { n: "5" }, 'n: invalid type: string "5", expected a number'],
    ["a float for a boolean", body({ b: { type: "boolean" } }), { b: 1.5 }, "b: invalid type: floating point `1.5`, expected a boolean"],
    ["null for a string", body({ url: str }), { url: null }, "url: invalid type: Option value, expected a string"],
    ["an array for an object", body({ o: body({}) }), { o: [] }, "o: invalid type: sequence, expected a JSON object"],
    ["a missing field", body({ url: str }), {}, "missing field url"],
    ["two missing fields", body({ a: str, b: str }), {}, "missing fields `a` and `b`"],
    ["three missing fields", body({ a: str, b: str, c: str }), { d: 1 }, "missing fields `a`, `b`, and `c`"],
    ["a literal union", body({ style: { type: "string", enum: ["formal", "casual", "excited"] } }), { style: "rude" }, 'style: invalid type: string "rude", expected "formal", "casual", or "excited"'],
    ["a literal", body({ kind: { const: "a" } }), { kind: "b" }, 'kind: expected "a", got b'],
    ["a nested field", body({ items: { type: "array", items: body({ name: { type: "string", minLength: 1 } }) } }), { items: [{ name: "x" }, { name: "" }] }, "items[1].name: length too short (got 0, expected at least 1)"],
    ["a nullable object's field", body({ o: { anyOf: [body({ n: num }), { type: "null" }] } }), { o: { n: "x" } }, 'o.n: invalid type: string "x", expected a number'],
    ["a datetime", body({ at: { type: "string", format: "date-time", "x-encore-type": "date" } }), { at: "yesterday" }, "at: invalid datetime: input contains invalid characters"],
  ])("%s", (_what, schema, data, text) => {
    expect(messageFor(schema, "body", data)).toBe(`unable to decode request body: ${text}`);
  });

  test("a body that is not an object", () => {
    expect(messageFor(body({ url: str }), "body", [1])).toBe("unable to decode request body: invalid type: sequence, expected a JSON object");
  });
});

describe("query, path and header parameters", () => {
  test("query: parsed from text, then checked", () => {
    expect(messageFor(body({ limit: num }, []), "query", { limit: "ten" })).toBe("unable to decode query string: limit: expected a number, got ten");
    expect(messageFor(body({ exact: { type: "boolean" } }, []), "query", { exact: "maybe" })).toBe("unable to decode query string: exact: expected a boolean, got maybe");
    expect(messageFor(body({ q: { type: "string", minLength: 2 } }), "query", { q: "a" })).toBe("unable to decode query string: q: length too short (got 1, expected at least 2)");
    expect(messageFor(body({ q: str }), "query", {})).toBe("unable to decode query string: missing field q");
  });

  test("path: Encore's own words for a value of the wrong type, and the rule's with the name", () => {
    expect(messageFor(body({ id: num }), "path", { id: "abc" })).toBe("path parameter is not a valid number");
    expect(messageFor(body({ on: { type: "boolean" } }), "path", { on: "x" })).toBe("path parameter is not a valid boolean");
    expect(messageFor(body({ code: { type: "string", minLength: 3 } }), "path", { code: "ab" })).toBe("invalid path parameter code: length too short (got 2, expected at least 3)");
  });

  test("header: missing, mistyped, refused by a rule", () => {
    expect(messageFor(body({ "x-nick": str }), "header", {})).toBe("missing required header: x-nick");
    expect(messageFor(body({ "x-count": num }), "header", { "x-count": "many" })).toBe("invalid number value: many");
    expect(messageFor(body({ "x-on": { type: "boolean" } }), "header", { "x-on": "sure" })).toBe("invalid boolean value: sure");
    expect(messageFor(body({ "x-nick": { type: "string", maxLength: 2 } }), "header", { "x-nick": "long" })).toBe("invalid header value");
  });
});
