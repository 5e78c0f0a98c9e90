import type { JSONSchema } from "../meta/types.ts";

/**
 * A TypeScript type for a schema the parser wrote, for generated code that cannot import
 * the app's own type (an auth handler its module does not export). Covers what the parser
 * emits: objects (with `required` and index signatures), arrays, enums, unions, null,
 * dates and decimals; anything else reads as `unknown`.
 */
export function typeOfSchema(schema: JSONSchema): string {
  if (schema["x-encore-type"] === "date") return "Date";
  if (schema["x-encore-type"] === "decimal") return 'import("encore.dev/types").Decimal';
  if (Array.isArray(schema["enum"])) return union(schema["enum"].map((value) => JSON.stringify(value)));
  if ("const" in schema) return JSON.stringify(schema["const"]);
  const anyOf = schema["anyOf"] ?? schema["oneOf"];
  if (Array.isArray(anyOf)) return union(anyOf.map((branch: JSONSchema) => typeOfSchema(branch)));
  const type = schema["type"];
  if (Array.isArray(type)) return union(type.map((name: string) => typeOfSchema({ ...schema, type: name })));
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      const items = schema["items"] as JSONSchema | undefined;
      return `Array<${items ? typeOfSchema(items) : "unknown"}>`;
    }
    case "object":
      return objectType(schema);
    default:
      return "unknown";
  }
}

function objectType(schema: JSONSchema): string {
  const properties = (schema["properties"] ?? {}) as Record<string, JSONSchema>;
  const required = new Set((schema["required"] ?? []) as string[]);
  const members = Object.entries(properties).map(
    ([name, property]) => `${JSON.stringify(name)}${required.has(name) ? "" : "?"}: ${typeOfSchema(property)}`,
  );
  const additional = schema["additionalProperties"];
  if (typeof additional === "object" && additional !== null) members.push(`[key: string]: ${typeOfSchema(additional as JSONSchema)}`);
  return `{ ${members.join("; ")} }`;
}

function union(members: readonly string[]): string {
  const unique = [...new Set(members)];
  return unique.length === 0 ? "never" : unique.join(" | ");
}
