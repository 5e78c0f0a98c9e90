import type { JSONSchema } from "../../meta/types.ts";

/**
 * The schema fast-json-stringify compiles for a response. Encore's runtime writes the
 * response's fields with the values the handler gave, whatever the declared type says
 * (runtimes/core/src/api/jsonschema/ser.rs: a field missing is left out, a null is
 * written as null), and never fails on a value. Compiled as declared, the serializer would
 * instead throw on a missing field (a 500), write a null string as "" and a null number
 * as 0, and throw on a union value that matches none of its branches. So, below the root:
 *
 * - `required` goes, except inside a union, where the serializer picks the first branch
 *   a value validates against: without it, the first object branch would match any object;
 * - every type also admits null, written as null;
 * - a union gets a last branch without constraints, so a value matching no branch (an SQL
 *   row with a column left out, say) is written as it is, as Encore writes every value;
 * - `const` goes outside unions (the serializer would write the constant, not the value);
 *   inside them it stays, to tell branches apart.
 *
 * The root keeps its object type: a handler's null or undefined answers {}, as in Encore.
 * The parser's annotations (x-encore-type) are for the request side and are dropped.
 */
export function serializerSchema(schema: JSONSchema): JSONSchema {
  return rewrite(schema, { inUnion: false, root: true });
}

interface Place {
  readonly inUnion: boolean;
  readonly root: boolean;
}

const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions"]);
const SCHEMA_LISTS = new Set(["prefixItems", "allOf"]);
const UNIONS = new Set(["anyOf", "oneOf"]);
const SUBSCHEMAS = new Set(["items", "additionalProperties", "not"]);
/** Matches any value; fast-json-stringify writes it with JSON.stringify. */
const AS_IT_IS: JSONSchema = {};

function rewrite(schema: JSONSchema, place: Place): JSONSchema {
  const below: Place = { inUnion: place.inUnion, root: false };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith("x-encore-") || (key === "required" && !place.inUnion) || (key === "const" && !place.inUnion)) continue;
    if (key === "type" && !place.root) {
      out[key] = withNull(value);
    } else if (SCHEMA_MAPS.has(key) && isSchema(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, isSchema(sub) ? rewrite(sub, below) : sub]));
    } else if (UNIONS.has(key) && Array.isArray(value)) {
      const branch: Place = { inUnion: true, root: false };
      out[key] = [...value.map((sub: unknown) => (isSchema(sub) ? rewrite(sub, branch) : sub)), AS_IT_IS];
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

/** A `type` that also admits null: "string" becomes ["string", "null"]. */
function withNull(type: unknown): unknown {
  if (typeof type === "string") return type === "null" ? type : [type, "null"];
  if (Array.isArray(type)) return type.includes("null") ? type : [...type, "null"];
  return type;
}

function isSchema(value: unknown): value is JSONSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
