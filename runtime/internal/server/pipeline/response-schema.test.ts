// The response serializer, compiled by fast-json-stringify from serializerSchema as both
// lanes compile it, writes what the handler returned, as Encore's does.
import fastJson from "fast-json-stringify";
import { describe, expect, test } from "vitest";
import type { JSONSchema } from "../../meta/types.ts";
import { serializerSchema } from "./response-schema.ts";

const str: JSONSchema = { type: "string" };
const num: JSONSchema = { type: "number" };
const obj = (properties: Record<string, JSONSchema>, required: string[] = Object.keys(properties)): JSONSchema => ({
  type: "object",
  properties,
  required,
});
// What the parser makes of `interface User { id: number; name: string; nickname?: string }`.
const user = obj({ id: num, name: str, nickname: str }, ["id", "name"]);
// `User | null`, as union-schema.ts writes it.
const userOrNull: JSONSchema = { anyOf: [user, { type: "null" }] };

const write = (schema: JSONSchema, value: unknown): unknown => JSON.parse(fastJson(serializerSchema(schema))(value));

describe("a field typed User | null", () => {
  const response = obj({ user: userOrNull });

  test("is written with the user's fields, or null", () => {
    expect(write(response, { user: { id: 1, name: "Ada", nickname: "ada" } })).toEqual({ user: { id: 1, name: "Ada", nickname: "ada" } });
    expect(write(response, { user: null })).toEqual({ user: null });
  });

  test("keeps an optional field an SQL row has as NULL: written as null", () => {
    expect(write(response, { user: { id: 1, name: "Ada", nickname: null } })).toEqual({ user: { id: 1, name: "Ada", nickname: null } });
  });

  test("a row lacking a declared field is written with the fields it has, not a 500", () => {
    expect(write(response, { user: { id: 2, nickname: "bob" } })).toEqual({ user: { id: 2, nickname: "bob" } });
  });

  test("a matching row loses the fields its type does not declare, as outside a union", () => {
    expect(write(response, { user: { id: 1, name: "Ada", password_hash: "x" } })).toEqual({ user: { id: 1, name: "Ada" } });
    expect(write(obj({ user }), { user: { id: 1, name: "Ada", password_hash: "x" } })).toEqual({ user: { id: 1, name: "Ada" } });
  });
});

describe("outside unions, a value is written as it was returned", () => {
  test("a missing field is left out", () => {
    expect(write(obj({ id: num, name: str }), { id: 1 })).toEqual({ id: 1 });
  });

  test("a null is written as null, not as the type's empty value", () => {
    const response = obj({ s: str, n: num, b: { type: "boolean" }, o: user, a: { type: "array", items: str }, d: { type: "string", format: "date-time" } });
    const nulls = { s: null, n: null, b: null, o: null, a: null, d: null };
    expect(write(response, nulls)).toEqual(nulls);
    expect(write(obj({ tags: { type: "array", items: str } }), { tags: ["a", null] })).toEqual({ tags: ["a", null] });
  });

  test("a literal type's field is written with the value given, null included", () => {
    const response = obj({ kind: { const: "user" } });
    expect(write(response, { kind: "user" })).toEqual({ kind: "user" });
    expect(write(response, { kind: null })).toEqual({ kind: null });
  });

  test("a Date is written as its ISO text", () => {
    expect(write(obj({ at: { type: "string", format: "date-time", "x-encore-type": "date" } }), { at: new Date(0) })).toEqual({ at: "1970-01-01T00:00:00.000Z" });
  });

  test("a handler's null answers {}: the root keeps its object type", () => {
    expect(write(obj({ id: num }), null)).toEqual({});
  });
});

describe("a union of object types", () => {
  const shape: JSONSchema = {
    anyOf: [obj({ kind: { const: "circle" }, radius: num }), obj({ kind: { const: "square" }, side: num })],
  };
  const response = obj({ shape });

  test("is written by the branch its value matches", () => {
    expect(write(response, { shape: { kind: "square", side: 2, extra: 1 } })).toEqual({ shape: { kind: "square", side: 2 } });
    expect(write(obj({ value: { anyOf: [obj({ a: str }), obj({ b: num })] } }), { value: { b: 2 } })).toEqual({ value: { b: 2 } });
  });

  test("a value matching no branch is written as it is, where the compiled serializer threw", () => {
    expect(write(response, { shape: { kind: "triangle", sides: [3, 4, 5] } })).toEqual({ shape: { kind: "triangle", sides: [3, 4, 5] } });
    expect(write(obj({ id: { anyOf: [str, num] } }), { id: true })).toEqual({ id: true });
  });

  test("the declared schema is left as it was", () => {
    const declared = obj({ user: userOrNull });
    const copy = structuredClone(declared);
    serializerSchema(declared);
    expect(declared).toEqual(copy);
  });
});
