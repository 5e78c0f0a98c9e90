import ts from "typescript";
import type { JSONSchema } from "../../meta/types.ts";

/**
 * A union as JSON Schema: literal members are grouped into enums (so `"a" | "b"` and TS enums
 * read naturally), `| undefined` is dropped because optionality is tracked on the property,
 * and `| null` makes the rest nullable.
 */
export function unionSchema(
  checker: ts.TypeChecker,
  type: ts.UnionType,
  convert: (member: ts.Type) => JSONSchema,
  fail: (reason: string) => never,
): JSONSchema {
  const absent = ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Null;
  // Attribute<T> (encore.dev/pubsub) is T | (T & { __attributeBrand }): the branded half
  // exists only for the type checker (AttributesOf), so the field is a plain T.
  const present = type.types.filter((member) => !(member.flags & absent) && !checker.getPropertyOfType(member, "__attributeBrand"));
  const nullable = type.types.some((member) => member.flags & ts.TypeFlags.Null);
  if (present.length === 0) return nullable ? { type: "null" } : fail("undefined is not serializable");

  const strings: string[] = [];
  const numbers: number[] = [];
  const booleans = new Set<boolean>();
  const others: JSONSchema[] = [];
  let fromEnum = false;
  for (const member of present) {
    if (member.flags & ts.TypeFlags.EnumLiteral) fromEnum = true;
    if (member.isStringLiteral()) strings.push(member.value);
    else if (member.isNumberLiteral()) numbers.push(member.value);
    else if (member.flags & ts.TypeFlags.BooleanLiteral) booleans.add(checker.typeToString(member) === "true");
    else others.push(convert(member));
  }
  const parts: JSONSchema[] = [];
  if (strings.length > 0) parts.push(literalGroup("string", strings, fromEnum));
  if (numbers.length > 0) parts.push(literalGroup("number", numbers, fromEnum));
  // `boolean` inside a union arrives as its two halves, true | false.
  if (booleans.size === 2) parts.push({ type: "boolean" });
  else for (const value of booleans) parts.push({ const: value });
  parts.push(...others);
  const schema = parts.length === 1 && parts[0] ? parts[0] : { anyOf: parts };
  return nullable ? nullableSchema(schema) : schema;
}

function literalGroup(kind: "string" | "number", values: readonly (string | number)[], fromEnum: boolean): JSONSchema {
  if (values.length === 1 && !fromEnum) return { const: values[0] };
  return { type: kind, enum: [...values] };
}

const PRIMITIVE_TYPES = new Set(["string", "number", "integer", "boolean"]);

/** `T | null`: a type list for plain primitives, anyOf for everything else. */
export function nullableSchema(schema: JSONSchema): JSONSchema {
  const type = schema["type"];
  const plainPrimitive =
    typeof type === "string" &&
    PRIMITIVE_TYPES.has(type) &&
    !("enum" in schema) &&
    !("const" in schema) &&
    !("x-encore-type" in schema);
  if (plainPrimitive) return { ...schema, type: [type, "null"] };
  const onlyAnyOf = Object.keys(schema).length === 1 && Array.isArray(schema["anyOf"]);
  const branches = onlyAnyOf ? (schema["anyOf"] as JSONSchema[]) : [schema];
  return { anyOf: [...branches, { type: "null" }] };
}
