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

  test("a Date is written as its ISO text, in a union's row too", () => {
    const date: JSONSchema = { type: "string", format: "date-time", "x-encore-type": "date" };
    expect(write(obj({ at: date }), { at: new Date(0) })).toEqual({ at: "1970-01-01T00:00:00.000Z" });
    const row: JSONSchema = { anyOf: [obj({ id: num, at: date }), { type: "null" }] };
    expect(write(obj({ row }), { row: { id: 1, at: new Date(0) } })).toEqual({ row: { id: 1, at: "1970-01-01T00:00:00.000Z" } });
  });

  test("a handler's null answers {}: the root keeps its object type", () => {
    expect(write(obj({ id: num }), null)).toEqual({});
  });
});

describe("a value of another JSON type than declared is written as it is, as Encore writes it", () => {
  // Encore's `simple-event-driven` example: `id: string` filled from a BIGSERIAL column,
  // which Encore's SQL driver (and this runtime's) reads as a number.
  const eventDrivenUser = obj({ id: str, name: str, email: str });

  test("a number in a string field stays a number, in a list of rows too", () => {
    const users = [{ name: "Ada", email: "ada@example.com", id: 1 }];
    expect(write(obj({ users: { type: "array", items: eventDrivenUser } }), { users })).toEqual({ users });
    expect(write(obj({ id: str }), { id: 42 })).toEqual({ id: 42 });
  });

  test("a numeric string in a number field stays a string (node-postgres's COUNT(*) and BIGINT)", () => {
    expect(write(obj({ count: num, total: { type: ["number", "null"] } }), { count: "12", total: "9007199254740993" })).toEqual({
      count: "12",
      total: "9007199254740993",
    });
    expect(write(obj({ count: num }), { count: "not a number" })).toEqual({ count: "not a number" });
  });

  test("a boolean, a string, an array or an object where another is declared is written as it is", () => {
    const response = obj({ flag: { type: "boolean" }, tags: { type: "array", items: str }, owner: user, at: { type: "string", format: "date-time" } });
    const returned = { flag: "yes", tags: "a,b", owner: [1, 2], at: 1700000000 };
    expect(write(response, returned)).toEqual(returned);
    expect(write(response, { owner: "ada", tags: { first: "a" } })).toEqual({ owner: "ada", tags: { first: "a" } });
  });

  test("a row of User | null with an id of another type keeps its branch: undeclared fields still dropped", () => {
    expect(write(obj({ user: userOrNull }), { user: { id: "7", name: "Ada", password_hash: "x" } })).toEqual({ user: { id: "7", name: "Ada" } });
  });

  test("inside a union, a literal still picks the branch whatever the other fields' types", () => {
    const shape: JSONSchema = { anyOf: [obj({ kind: { const: "circle" }, radius: num }), obj({ kind: { const: "square" }, side: num })] };
    expect(write(obj({ shape }), { shape: { kind: "square", side: "2", radius: 1 } })).toEqual({ shape: { kind: "square", side: "2" } });
  });

  test("a union of a scalar and an object picks by the value's type", () => {
    const response = obj({ owner: { anyOf: [str, user] } });
    expect(write(response, { owner: { id: 1, name: "Ada", password_hash: "x" } })).toEqual({ owner: { id: 1, name: "Ada" } });
    expect(write(response, { owner: "ada" })).toEqual({ owner: "ada" });
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
