import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { FieldLocation, JSONSchema } from "../meta/types.ts";
import { decimalValueKeyword, encoreTypeKeyword } from "./decimals.ts";
import { encoreMessage, VALIDATE_KEY } from "./encore-messages.ts";

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

function makeAjv(coerceTypes: false | "array"): Ajv {
  // verbose: errors carry the value and schema Encore's messages quote (encore-messages.ts).
  const ajv = new Ajv({ coerceTypes, allErrors: false, strict: false, useDefaults: false, verbose: true });
  addFormats(ajv, ["email", "uri", "date-time", "date"]);
  ajv.addKeyword(encoreTypeKeyword);
  // The named type a schema comes from (for generated clients): no effect on validation.
  ajv.addKeyword({ keyword: "x-encore-ref", schemaType: "object" });
  // The encore.dev/validate rule a pattern comes from, for its message: no effect on validation.
  ajv.addKeyword({ keyword: VALIDATE_KEY, schemaType: "object" });
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

/**
 * The message for data a validator refused, in Encore's words (encore-messages.ts), such as
 * "unable to decode request body: message: length too short (got 2, expected at least 3)".
 */
export function describeValidationErrors(errors: readonly ErrorObject[] | null | undefined, location: DataSource, data: unknown): string {
  return errors && errors.length > 0 ? encoreMessage(errors, location, data) : "invalid request";
}
