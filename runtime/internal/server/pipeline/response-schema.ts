import type { JSONSchema } from "../../meta/types.ts";

/**
 * The schema fast-json-stringify compiles for a response. Encore's runtime writes the
 * fields a handler returned and leaves out the ones it did not, whatever the declared
 * type says (runtimes/core/src/api/jsonschema/ser.rs), so `required` goes: compiled as
 * is, a missing field would make the serializer throw and the call answer 500.
 *
 * Inside a union (anyOf/oneOf) `required` stays: fast-json-stringify picks the branch a
 * value matches, and without it the first object branch would match any object.
 * The parser's annotations (x-encore-type) are for the request side and are dropped.
 */
export function serializerSchema(schema: JSONSchema): JSONSchema {
  return rewrite(schema, false);
}

const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions"]);
const SCHEMA_LISTS = new Set(["prefixItems", "allOf"]);
const UNIONS = new Set(["anyOf", "oneOf"]);
const SUBSCHEMAS = new Set(["items", "additionalProperties", "not"]);

function rewrite(schema: JSONSchema, inUnion: boolean): JSONSchema {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith("x-encore-") || (key === "required" && !inUnion)) continue;
    if (SCHEMA_MAPS.has(key) && isSchema(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, isSchema(sub) ? rewrite(sub, inUnion) : sub]));
    } else if ((SCHEMA_LISTS.has(key) || UNIONS.has(key)) && Array.isArray(value)) {
      const branchInUnion = inUnion || UNIONS.has(key);
      out[key] = value.map((sub: unknown) => (isSchema(sub) ? rewrite(sub, branchInUnion) : sub));
    } else if (SUBSCHEMAS.has(key) && isSchema(value)) {
      out[key] = rewrite(value, inUnion);
    } else {
      out[key] = value;
    }
  }
  return out;
}

function isSchema(value: unknown): value is JSONSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
