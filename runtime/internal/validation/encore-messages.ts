import type { ErrorObject } from "ajv";
import { parseDecimal } from "../decimal/parse.ts";
import type { JSONSchema } from "../meta/types.ts";

/**
 * Encore's words for a value its schema refuses, from ajv's errors (ajv decides what is valid;
 * this only words it). Texts are Encore's, read in runtimes/core/src/api: jsonschema/validation.rs
 * for the rules of encore.dev/validate, jsonschema/de.rs (serde) for types and missing fields,
 * schema/{body,query,path}.rs and jsonschema/parse.rs for how each location prefixes them.
 * One difference: Encore's body messages end with serde_json's " at line L column C", which
 * the runtime cannot know once the body is parsed; they are left out.
 *
 * To word a new rule, add its keyword to `ruleTexts` (and, for a value read from text, to the
 * location's words below).
 */

/** Where the data comes from: a request location, a whole call's parameters, or a message. */
export type MessageLocation = "body" | "query" | "path" | "header" | "cookie" | "call" | "message";

/** The one message for a failed validation of `data`. */
export function encoreMessage(errors: readonly ErrorObject[], location: MessageLocation, data: unknown): string {
  const error = chosen(errors);
  const segments = error.instancePath.split("/").slice(1).map(unescapePointer);
  switch (location) {
    case "path":
      return pathMessage(error, segments);
    case "header":
    case "cookie":
      return oneByOneMessage(error, location);
    case "query":
      return `unable to decode query string: ${located(segments, data, serdeText(error, true))}`;
    case "body":
      return `unable to decode request body: ${located(segments, data, serdeText(error, false))}`;
    default:
      return located(segments, data, serdeText(error, false));
  }
}

/**
 * The error Encore would meet first. ajv lists a union's branch errors before the union's own:
 * for `T | null` Encore reports T's error (an Option is its inner type), for a real union it
 * reports that no member matched.
 */
function chosen(errors: readonly ErrorObject[]): ErrorObject {
  const union = errors.find((e) => e.keyword === "anyOf" || e.keyword === "oneOf");
  if (union && nonNullBranches(union.parentSchema as JSONSchema | undefined).length > 1) return union;
  return errors.find((e) => !(e.keyword === "type" && e.params["type"] === "null")) ?? errors[0]!;
}

// serde_path_to_error's path: fields joined by ".", array items as "[i]"; none at the root.
function located(segments: readonly string[], data: unknown, text: string): string {
  let path = "";
  let node: unknown = data;
  for (const segment of segments) {
    if (Array.isArray(node)) path += `[${segment}]`;
    else path += path === "" ? segment : `.${segment}`;
    node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[segment] : undefined;
  }
  return path === "" ? text : `${path}: ${text}`;
}

/** serde's wording (de.rs), for JSON and query strings; `fromText`: the value arrived as text (query). */
function serdeText(error: ErrorObject, fromText: boolean): string {
  const schema = (error.parentSchema ?? {}) as JSONSchema;
  const data: unknown = error.data;
  if (error.keyword === "required") return missingFields(schema, data);
  const rule = ruleText(error);
  if (rule !== undefined) return rule;
  if (error.keyword === "x-encore-type") return `invalid decimal: ${decimalProblem(data)}`;
  if ((error.keyword === "const" || (error.keyword === "enum" && (schema["enum"] as unknown[]).length === 1)) && typeof data === "string") {
    return `expected ${expecting(schema)}, got ${data}`;
  }
  if (error.keyword === "format" && schema["format"] === "date-time") return `invalid datetime: ${datetimeProblem(String(data))}`;
  if (fromText && error.keyword === "type" && typeof data === "string") {
    const basic = basicExpecting(schema);
    if (basic === "a number" || basic === "a boolean" || basic === "null") return `expected ${basic}, got ${data}`;
  }
  return `invalid type: ${unexpected(data)}, expected ${expecting(schema)}`;
}

// How Encore words the rules of encore.dev/validate (validation.rs, Error).
const ruleTexts: Readonly<Record<string, (error: ErrorObject) => string | undefined>> = {
  minLength: (e) => `length too short (got ${lengthOf(e.data)}, expected at least ${String(e.params["limit"])})`,
  minItems: (e) => `length too short (got ${lengthOf(e.data)}, expected at least ${String(e.params["limit"])})`,
  maxLength: (e) => `length too long (got ${lengthOf(e.data)}, expected at most ${String(e.params["limit"])})`,
  maxItems: (e) => `length too long (got ${lengthOf(e.data)}, expected at most ${String(e.params["limit"])})`,
  minimum: (e) => `value must be at least ${String(e.params["limit"])} (got ${String(e.data)})`,
  maximum: (e) => `value must be at most ${String(e.params["limit"])} (got ${String(e.data)})`,
  pattern: (e) => {
    const rule = (e.parentSchema as JSONSchema | undefined)?.[VALIDATE_KEY] as { kind: string; value: string } | undefined;
    if (rule?.kind === "startsWith") return `value does not start with ${debugString(rule.value)}`;
    if (rule?.kind === "endsWith") return `value does not end with ${debugString(rule.value)}`;
    return `value does not match the regexp ${debugString(rule?.value ?? String(e.params["pattern"]))}`;
  },
  format: (e) => (e.params["format"] === "email" ? "value is not an email" : e.params["format"] === "uri" ? "value is not a url" : undefined),
};

/** The schema keyword naming the encore.dev/validate rule a `pattern` comes from (parser/schema/validation.ts). */
export const VALIDATE_KEY = "x-encore-validate";

function ruleText(error: ErrorObject): string | undefined {
  return ruleTexts[error.keyword]?.(error);
}

// Encore measures a string's length in UTF-8 bytes (Rust's str::len), an array's in items.
function lengthOf(value: unknown): number {
  if (typeof value === "string") return Buffer.byteLength(value, "utf8");
  return Array.isArray(value) ? value.length : 0;
}

function missingFields(schema: JSONSchema, data: unknown): string {
  const present = data !== null && typeof data === "object" ? (data as Record<string, unknown>) : {};
  const missing = ((schema["required"] ?? []) as string[]).filter((name) => present[name] === undefined);
  if (missing.length <= 1) return `missing field ${missing[0] ?? ""}`;
  const quoted = missing.map((name) => `\`${name}\``);
  if (quoted.length === 2) return `missing fields ${quoted[0]} and ${quoted[1]}`;
  return `missing fields ${quoted.slice(0, -1).join(", ")}, and ${quoted.at(-1)}`;
}

// serde's Unexpected, for a JSON value (null reaches Encore's decoder as an Option).
function unexpected(value: unknown): string {
  if (value === null || value === undefined) return "Option value";
  if (typeof value === "boolean") return `boolean \`${value}\``;
  if (typeof value === "number") return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  if (typeof value === "string") return `string ${debugString(value)}`;
  return Array.isArray(value) ? "sequence" : "map";
}

/** What Encore says it expected (de.rs, expecting): "a string", "a JSON object", `"a" or "b"`, ... */
function expecting(schema: JSONSchema): string {
  const values = (schema["enum"] as unknown[] | undefined) ?? ("const" in schema ? [schema["const"]] : undefined);
  if (values) return alternatives(values.map(literal));
  const branches = nonNullBranches(schema);
  if (Array.isArray(schema["anyOf"] ?? schema["oneOf"])) return alternatives(branches.map(expecting));
  return basicExpecting(schema);
}

function basicExpecting(schema: JSONSchema): string {
  if (schema["x-encore-type"] === "date") return "a datetime string";
  if (schema["x-encore-type"] === "decimal") return "a decimal";
  const all = ([] as unknown[]).concat(schema["type"] ?? []);
  const type = all.find((t) => t !== "null") ?? all[0];
  switch (type) {
    case "string":
      return "a string";
    case "number":
    case "integer":
      return "a number";
    case "boolean":
      return "a boolean";
    case "null":
      return "null";
    case "array":
      return "a JSON array";
    case "object":
      return schema["properties"] === undefined && schema["additionalProperties"] !== undefined ? "a JSON map" : "a JSON object";
    default:
      return "any valid JSON value";
  }
}

function nonNullBranches(schema: JSONSchema | undefined): JSONSchema[] {
  const branches = (schema?.["anyOf"] ?? schema?.["oneOf"] ?? []) as JSONSchema[];
  return branches.filter((branch) => branch["type"] !== "null");
}

// Encore's list of a union's members: "a or b", "a, b, or c".
function alternatives(items: readonly string[]): string {
  if (items.length <= 2) return items.join(" or ");
  return `${items.slice(0, -1).join(", ")}, or ${items.at(-1)}`;
}

// A literal as Rust's {:#?} writes it.
function literal(value: unknown): string {
  return typeof value === "string" ? debugString(value) : String(value);
}

/** A string as Rust's Debug format quotes it. */
export function debugString(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '"' || char === "\\") out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (char === "\0") out += "\\0";
    else if (code < 0x20 || code === 0x7f) out += `\\u{${code.toString(16)}}`;
    else out += char;
  }
  return `${out}"`;
}

// chrono's ParseError texts, for the common cases of a text that is not RFC 3339.
function datetimeProblem(text: string): string {
  return /^\d{4}-\d{2}-\d{2}(T\d{2}(:\d{2}(:\d{2}(\.\d+)?)?)?)?$/.test(text) ? "premature end of input" : "input contains invalid characters";
}

// A path parameter is parsed by its type, then checked (schema/path.rs).
function pathMessage(error: ErrorObject, segments: readonly string[]): string {
  const name = segments[0] ?? "";
  const schema = (error.parentSchema ?? {}) as JSONSchema;
  if (error.keyword === "type") {
    const basic = basicExpecting(schema);
    if (basic === "a number") return "path parameter is not a valid number";
    if (basic === "a boolean") return "path parameter is not a valid boolean";
  }
  if (error.keyword === "format" && schema["format"] === "date-time") return "path parameter is not a valid datetime";
  return `invalid path parameter ${name}: ${ruleText(error) ?? serdeText(error, true)}`;
}

// Headers and cookies are parsed one by one (jsonschema/parse.rs).
function oneByOneMessage(error: ErrorObject, noun: "header" | "cookie"): string {
  const schema = (error.parentSchema ?? {}) as JSONSchema;
  if (error.keyword === "required") return `missing required ${noun}: ${String(error.params["missingProperty"])}`;
  if (error.keyword === "x-encore-type") return `invalid decimal value: ${String(error.data)}`;
  if (error.keyword === "type") {
    const basic = basicExpecting(schema);
    if (basic === "a number") return `invalid number value: ${String(error.data)}`;
    if (basic === "a boolean") return `invalid boolean value: ${String(error.data)}`;
  }
  if (error.keyword === "format" && schema["format"] === "date-time") return "invalid datetime";
  return `invalid ${noun} value`;
}

// What Encore's Decimal::from_str says of a text it cannot read (runtimes/core/src/api/pvalue.rs).
function decimalProblem(data: unknown): string {
  const parsed = parseDecimal(String(data));
  return "error" in parsed ? parsed.error : `Failed to parse decimal from string: ${String(data)}`;
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}
