import { beforeAll, describe, expect, it } from "vitest";
import type { AppMeta, JSONSchema } from "../../meta/types.ts";
import { endpointOf, fixture, withoutRefs } from "../../../test/parser-fixtures.ts";
import { parseApp } from "../mod.ts";

let meta: AppMeta;
beforeAll(() => {
  meta = parseApp(fixture("types"));
});

function fieldsOf(endpoint: string): Record<string, JSONSchema> {
  const full = endpointOf(meta, "shapes", endpoint).request?.full;
  return withoutRefs((full?.["properties"] ?? {}) as Record<string, JSONSchema>);
}

const point = { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] };
const date = { type: "string", format: "date-time", "x-encore-type": "date" };

describe("primitive types", () => {
  it.each([
    ["text", { type: "string", description: "A plain string." }],
    ["count", { type: "number" }],
    ["flag", { type: "boolean" }],
    ["literal", { const: "fixed" }],
    ["size", { type: "string", enum: ["s", "m", "l"] }],
    ["odd", { type: "number", enum: [1, 3, 5] }],
    ["color", { type: "string", enum: ["red", "green"] }],
    ["level", { type: "number", enum: [0, 1] }],
    ["maybe", { type: "string" }],
    ["orUndefined", { type: "number" }],
    ["nullableText", { type: ["string", "null"] }],
    ["nullableSize", { anyOf: [{ type: "string", enum: ["s", "m"] }, { type: "null" }] }],
    ["mixed", { anyOf: [{ type: "string" }, { type: "number" }] }],
    ["when", date],
    ["anything", {}],
    ["unknownValue", {}],
    ["template", { type: "string" }],
    ["yes", { const: true }],
  ])("%s", (name, expected) => {
    expect(fieldsOf("primitives")[name]).toEqual(expected);
  });

  it("lists non-optional fields as required, in declaration order", () => {
    const full = endpointOf(meta, "shapes", "primitives").request?.full;
    expect(full?.["required"]).toEqual([
      "text", "count", "flag", "literal", "size", "odd", "color", "level",
      "nullableText", "nullableSize", "mixed", "when", "anything", "unknownValue", "template", "yes",
    ]);
  });

  it("uses the awaited return type as the response", () => {
    const endpoint = endpointOf(meta, "shapes", "primitives");
    expect(endpoint.response).toEqual(endpoint.request?.full);
  });
});

describe("containers", () => {
  it.each([
    ["list", { type: "array", items: { type: "string" } }],
    ["generic", { type: "array", items: { type: "number" } }],
    ["frozen", { type: "array", items: { type: "boolean" } }],
    ["points", { type: "array", items: point }],
    [
      "nested",
      {
        type: "object",
        properties: { inner: { type: "object", properties: { deep: { type: "string" } }, required: ["deep"] } },
        required: ["inner"],
      },
    ],
    ["counts", { type: "object", additionalProperties: { type: "number" } }],
    ["loose", { type: "object", additionalProperties: {} }],
    ["indexed", { type: "object", additionalProperties: point }],
    [
      "both",
      {
        type: "object",
        properties: { x: { type: "number" }, y: { type: "number" }, label: { type: "string" } },
        required: ["x", "y", "label"],
      },
    ],
    ["nullablePoint", { anyOf: [point, { type: "null" }] }],
    ["choice", { anyOf: [point, { type: "object", properties: { label: { type: "string" } }, required: ["label"] }] }],
    ["keyed", { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, required: ["a", "b"] }],
    ["dates", { type: "array", items: date }],
    ["obj", { type: "object" }],
  ])("%s", (name, expected) => {
    expect(fieldsOf("containers")[name]).toEqual(expected);
  });

  it("describes an inline response type", () => {
    expect(endpointOf(meta, "shapes", "containers").response).toEqual({
      type: "object",
      properties: { ok: { type: "boolean" } },
      required: ["ok"],
    });
  });
});

describe("encore.dev/validate constraints", () => {
  it.each([
    ["link", { type: "string", maxLength: 10, format: "uri" }],
    ["score", { type: "number", minimum: 1, maximum: 100 }],
    ["name", { type: "string", minLength: 2 }],
    ["tags", { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 }],
    ["codes", { type: "array", items: { type: "string", maxLength: 5 } }],
    // Each pattern beside the rule it comes from, for the rule's message in Encore's words.
    ["file", { type: "string", allOf: [
      { pattern: "^a\\.b", "x-encore-validate": { kind: "startsWith", value: "a.b" } },
      { pattern: "\\(z\\)$", "x-encore-validate": { kind: "endsWith", value: "(z)" } },
    ] }],
    ["slug", { type: "string", pattern: "^[a-z]+$", "x-encore-validate": { kind: "matchesRegexp", value: "^[a-z]+$" } }],
    ["email", { type: "string", format: "email" }],
    ["optionalScore", { type: "number", minimum: 0 }],
    ["nullableEmail", { type: ["string", "null"], format: "email" }],
  ])("%s", (name, expected) => {
    expect(fieldsOf("validated")[name]).toEqual(expected);
  });

  it("treats an optional constrained field as optional", () => {
    const required = endpointOf(meta, "shapes", "validated").request?.full["required"];
    expect(required).not.toContain("optionalScore");
  });

  it("gives a void handler a null response", () => {
    expect(endpointOf(meta, "shapes", "validated").response).toBeNull();
  });
});
