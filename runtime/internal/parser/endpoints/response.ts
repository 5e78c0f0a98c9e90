import ts from "typescript";
import type { JSONSchema } from "../../meta/types.ts";
import type { AppProgram } from "../program/program.ts";
import { typeName, type SchemaBuilder } from "../schema/schema.ts";

/** The handler's awaited return type as a schema; null when it returns nothing. */
export function buildResponse(
  app: AppProgram,
  schemas: SchemaBuilder,
  signature: ts.Signature,
  handler: ts.Expression,
  endpoint: string,
): JSONSchema | null {
  const returned = signature.getReturnType();
  const type = app.checker.getAwaitedType(returned) ?? returned;
  if (returnsNothing(type)) return null;

  const declaredReturn = ts.isArrowFunction(handler) || ts.isFunctionExpression(handler) ? handler.type : undefined;
  const site = { node: declaredReturn ?? handler, owner: typeName(type) ?? `the response of ${endpoint}`, field: "" };
  const schema = schemas.schemaOf(type, site);
  // Encore requires object responses: a bare value has no field names for JSON or headers.
  const isObject = schema["type"] === "object" || Object.keys(schema).length === 0;
  if (!isObject) schemas.fail({ ...site, owner: `the response of ${endpoint}` }, type, "responses must be object types");
  return schema;
}

function returnsNothing(type: ts.Type): boolean {
  const nothing = ts.TypeFlags.Void | ts.TypeFlags.Undefined;
  if (type.flags & nothing) return true;
  return type.isUnion() && type.types.every((member) => member.flags & nothing);
}
