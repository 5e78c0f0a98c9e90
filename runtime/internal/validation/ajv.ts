import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { FieldLocation, JSONSchema } from "../meta/types.ts";
import { decimalValueKeyword, encoreTypeKeyword } from "./decimals.ts";

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

function makeAjv(coerceTypes: false | "array"): Ajv {
  const ajv = new Ajv({ coerceTypes, allErrors: false, strict: false, useDefaults: false });
  addFormats(ajv, ["email", "uri", "date-time", "date"]);
  ajv.addKeyword(encoreTypeKeyword);
  // The named type a schema comes from (for generated clients): no effect on validation.
  ajv.addKeyword({ keyword: "x-encore-ref", schemaType: "object" });
  return ajv;
}

/**
 * JSON bodies are validated strictly: a number is not a string and a string is not
 * a number (Fastify's default Ajv setup would coerce {"url": 5} into "5").
 * Path, query and header values arrive as text, so there they are coerced.
 */
const strict = makeAjv(false);
const fromText = makeAjv("array");

/** Where validated data comes from: a request location, a whole call's parameters, or a stream message. */
export type DataSource = FieldLocation | "call" | "message";

export function compileValidator(schema: JSONSchema, location: DataSource): ValidateFunction {
  return (location === "body" || location === "call" || location === "message" ? strict : fromText).compile(schema);
}

// Values made by app code rather than parsed from JSON: a Date field holds a Date.
const values = makeAjv(false);
values.addKeyword({
  keyword: "x-encore-date-value",
  schemaType: "boolean",
  validate: (_: boolean, data: unknown) => data instanceof Date && !Number.isNaN(data.getTime()),
});
values.addKeyword(decimalValueKeyword);

/** Validator for values app code returns (auth data): like a JSON body, but dates are Date objects. */
export function compileValueValidator(schema: JSONSchema): ValidateFunction {
  return values.compile(withDateValues(schema) as JSONSchema);
}

function withDateValues(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withDateValues);
  if (typeof schema !== "object" || schema === null) return schema;
  const node = schema as Record<string, unknown>;
  if (node["x-encore-type"] === "date") return { "x-encore-date-value": true };
  if (node["x-encore-type"] === "decimal") return { "x-encore-decimal-value": true };
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withDateValues(value)]));
}

const where: Record<DataSource, (field: string) => string> = {
  body: (f) => `field "${f}" of the request body`,
  message: (f) => `field "${f}" of the message`,
  call: (f) => `field "${f}" of the request`,
  query: (f) => `query parameter "${f}"`,
  path: (f) => `path parameter "${f}"`,
  header: (f) => `header "${f}"`,
  cookie: (f) => `cookie "${f}"`,
};

/** A message naming the field, such as: field "url" of the request body must be string. */
export function describeValidationError(error: ErrorObject, location: DataSource): string {
  const segments = error.instancePath.split("/").slice(1).map(unescapePointer);
  if (error.keyword === "required") {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return `${where[location]([...segments, missing].join("."))} is required`;
  }
  if (segments.length === 0) {
    if (location === "message") return "the message must be a JSON object";
    return location === "body" ? "the request body must be a JSON object" : `the request ${error.message ?? "is invalid"}`;
  }
  return `${where[location](segments.join("."))} ${error.message ?? "is invalid"}`;
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}
