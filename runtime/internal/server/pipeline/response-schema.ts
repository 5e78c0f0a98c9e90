import type { JSONSchema } from "../../meta/types.ts";

/**
 * The schema fast-json-stringify compiles for a response. Encore's runtime writes the
 * response's declared fields with the values the handler gave, whatever the declared type
 * says (runtimes/core/src/api/jsonschema/ser.rs: each JavaScript value is turned into JSON
 * by its own type, runtimes/js/src/pvalue.rs; a field missing is left out, a null is
 * written as null, a number in a `string` field as a number, a numeric string in a
 * `number` field as a string), and never fails on a value. Compiled as declared, the
 * serializer would instead throw on a missing field (a 500), write a null string as "",
 * convert or refuse a value of another JSON type, and throw on a union value that matches
 * none of its branches. So, below the root:
 *
 * - a string, number, integer or boolean field is written as it is (a Date as its ISO
 *   text, as the declared date-time format did);
 * - an object or array field is written by its schema when the value is an object or an
 *   array (undeclared properties dropped), and as it is otherwise (null included);
 * - `required` goes, except inside a union, where the serializer picks the first branch
 *   a value validates against: without it, the first object branch would match any object;
 * - a union's own branches keep their types (so `string | User` picks by the value's
 *   type) and admit null; below a branch, scalar fields keep only `const` and `enum`, which
 *   tell branches apart, so a row with a BIGINT id as a string still matches its branch;
 * - a union gets a last branch without constraints, so a value matching no branch (an SQL
 *   row with a column left out, say) is written as it is, as Encore writes every value.
 *
 * The root keeps its object type: a handler's null or undefined answers {}, as in Encore.
 * The parser's annotations (x-encore-type) are for the request side and are dropped.
 */
export function serializerSchema(schema: JSONSchema): JSONSchema {
  return rewrite(schema, "root");
}

/**
 * Where a schema sits: the response itself, a field outside any union, a union's own
 * branch, or anywhere below a branch.
 */
type Place = "root" | "field" | "branch" | "in-branch";

const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions"]);
const SCHEMA_LISTS = new Set(["prefixItems", "allOf"]);
const UNIONS = new Set(["anyOf", "oneOf"]);
const SUBSCHEMAS = new Set(["items", "additionalProperties", "not"]);
const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);
/** Matches any value; fast-json-stringify writes it with JSON.stringify. */
const AS_IT_IS: JSONSchema = {};
/**
 * A Date field: a Date (or a date-time text) written by fast-json-stringify's date path,
 * several times faster than JSON.stringify's toJSON; any other value as it is.
 */
const DATE_OR_AS_IT_IS: JSONSchema = { anyOf: [{ type: "string", format: "date-time" }, AS_IT_IS] };

function rewrite(schema: JSONSchema, place: Place): JSONSchema {
  const kind = kindOf(schema);
  if (kind === "scalar" && schema["format"] === "date-time" && (place === "field" || place === "in-branch")) return DATE_OR_AS_IT_IS;
  if (kind === "scalar" && place === "field") return AS_IT_IS;
  if (kind === "scalar" && place === "in-branch") return tellsBranchesApart(schema);
  const body = rewriteKeys(schema, place);
  if ((kind === "object" || kind === "array") && (place === "field" || place === "in-branch")) {
    // Checked with the value's JSON type only: a string where an object is declared is
    // written as a string, as Encore writes it, not refused.
    return { if: { type: kind }, then: body, else: AS_IT_IS };
  }
  return body;
}

function rewriteKeys(schema: JSONSchema, place: Place): JSONSchema {
  const below: Place = place === "branch" || place === "in-branch" ? "in-branch" : "field";
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith("x-encore-") || (key === "required" && below === "field")) continue;
    if (key === "type" && place === "branch") {
      out[key] = withNull(value);
    } else if (SCHEMA_MAPS.has(key) && isSchema(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, isSchema(sub) ? rewrite(sub, below) : sub]));
    } else if (UNIONS.has(key) && Array.isArray(value)) {
      out[key] = [...value.map((sub: unknown) => (isSchema(sub) ? rewrite(sub, "branch") : sub)), AS_IT_IS];
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((sub: unknown) => (isSchema(sub) ? rewrite(sub, below) : sub));
    } else if (SUBSCHEMAS.has(key) && isSchema(value)) {
      out[key] = rewrite(value, below);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** What a schema declares: a scalar, an object, an array, or something else (any, a union). */
function kindOf(schema: JSONSchema): "scalar" | "object" | "array" | "other" {
  const type = schema["type"];
  const types = typeof type === "string" ? [type] : Array.isArray(type) ? type : [];
  if (types.includes("object")) return "object";
  if (types.includes("array")) return "array";
  if (types.length > 0 && types.every((t) => SCALAR_TYPES.has(t as string))) return "scalar";
  if (types.length === 0 && ("const" in schema || "enum" in schema) && !("properties" in schema)) return "scalar";
  return "other";
}

/** A scalar below a union's branch: only its literal values, which pick the branch. */
function tellsBranchesApart(schema: JSONSchema): JSONSchema {
  const out: Record<string, unknown> = {};
  if ("const" in schema) out["const"] = schema["const"];
  if ("enum" in schema) out["enum"] = schema["enum"];
  return out;
}

/** A `type` that also admits null: "string" becomes ["string", "null"]. */
function withNull(type: unknown): unknown {
  if (typeof type === "string") return type === "null" ? type : [type, "null"];
  if (Array.isArray(type)) return type.includes("null") ? type : [...type, "null"];
  return type;
}

function isSchema(value: unknown): value is JSONSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
