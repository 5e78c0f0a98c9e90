import ts from "typescript";
import type { JSONSchema, ResponseHeaderField } from "../../meta/types.ts";
import { errorAt } from "../program/errors.ts";
import type { AppProgram } from "../program/program.ts";
import { typeName, type SchemaBuilder } from "../schema/schema.ts";
import { fieldWrapperOf, isHttpStatusField } from "./field-wrappers.ts";
import { declaredTypeNode } from "./request.ts";

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

/**
 * The response's `Header<...>` fields, which Encore sends as response headers rather than in
 * the JSON body (`sessionCookie?: Header<"Set-Cookie">`). Only text fits a header here: a
 * `Query<...>` in a response, or a header of another type, is refused.
 */
export function responseHeaderFields(
  app: AppProgram,
  schemas: SchemaBuilder,
  signature: ts.Signature,
  handler: ts.Expression,
  endpoint: string,
): ResponseHeaderField[] {
  const returned = signature.getReturnType();
  const type = app.checker.getAwaitedType(returned) ?? returned;
  if (returnsNothing(type)) return [];
  const owner = typeName(type) ?? `the response of ${endpoint}`;
  const fields: ResponseHeaderField[] = [];
  const seen = new Map<string, string>();
  for (const property of schemas.propertiesOf(type, { node: handler, owner, field: "" })) {
    const typeNode = property.declaration && declaredTypeNode(property.declaration);
    const wrapper = fieldWrapperOf(app.checker, typeNode);
    if (!wrapper || wrapper.location === "cookie") continue;
    if (wrapper.location !== "header") {
      throw errorAt(app.appRoot, property.site.node, `field "${property.name}" of ${owner} is a Query<...>: a response has no query string`);
    }
    if (property.schema["type"] !== "string") {
      throw errorAt(app.appRoot, property.site.node, `field "${property.name}" of ${owner} is a response header, which must be a string`);
    }
    const wireName = (wrapper.wireName ?? property.name).toLowerCase();
    const other = seen.get(wireName);
    if (other !== undefined) {
      throw errorAt(app.appRoot, property.site.node, `fields "${other}" and "${property.name}" both use the response header "${wireName}"`);
    }
    seen.set(wireName, property.name);
    fields.push({ name: property.name, wireName, optional: property.optional });
  }
  return fields;
}

/**
 * The response's `Cookie<...>` fields, which Encore sends as Set-Cookie headers with the
 * options the handler sets (`sessionId: Cookie<"sid">` answered as
 * `{ value, httpOnly: true, maxAge: 3600 }`). A value must fit a cookie as a request
 * cookie's does: a string, number, boolean, Date or Decimal.
 */
export function responseCookieFields(
  app: AppProgram,
  schemas: SchemaBuilder,
  signature: ts.Signature,
  handler: ts.Expression,
  endpoint: string,
): ResponseHeaderField[] {
  const returned = signature.getReturnType();
  const type = app.checker.getAwaitedType(returned) ?? returned;
  if (returnsNothing(type)) return [];
  const owner = typeName(type) ?? `the response of ${endpoint}`;
  const fields: ResponseHeaderField[] = [];
  const seen = new Map<string, string>();
  for (const property of schemas.propertiesOf(type, { node: handler, owner, field: "" })) {
    const typeNode = property.declaration && declaredTypeNode(property.declaration);
    const wrapper = fieldWrapperOf(app.checker, typeNode);
    if (wrapper?.location !== "cookie") continue;
    const value = (property.schema["properties"] as Record<string, JSONSchema> | undefined)?.["value"];
    const valueType = value?.["type"];
    if (!value || !(valueType === "string" || valueType === "number" || valueType === "boolean" || Array.isArray(value["enum"]) || "const" in value)) {
      throw errorAt(app.appRoot, property.site.node, `field "${property.name}" of ${owner} is a response cookie, whose value must be a string, number, boolean, enum, Date or Decimal`);
    }
    const wireName = wrapper.wireName ?? property.name;
    const other = seen.get(wireName);
    if (other !== undefined) {
      throw errorAt(app.appRoot, property.site.node, `fields "${other}" and "${property.name}" both set the cookie "${wireName}"`);
    }
    seen.set(wireName, property.name);
    fields.push({ name: property.name, wireName, optional: property.optional });
  }
  return fields;
}

/**
 * The response's `HttpStatus` field, whose value Encore answers with as the HTTP status
 * (runtimes/core/src/api/schema/httpstatus.rs); null without one. Encore takes one such field.
 */
export function httpStatusField(
  app: AppProgram,
  schemas: SchemaBuilder,
  signature: ts.Signature,
  handler: ts.Expression,
  endpoint: string,
): string | null {
  const returned = signature.getReturnType();
  const type = app.checker.getAwaitedType(returned) ?? returned;
  if (returnsNothing(type)) return null;
  const owner = typeName(type) ?? `the response of ${endpoint}`;
  let found: string | null = null;
  for (const property of schemas.propertiesOf(type, { node: handler, owner, field: "" })) {
    const typeNode = property.declaration && declaredTypeNode(property.declaration);
    if (!isHttpStatusField(app.checker, typeNode)) continue;
    if (found !== null) {
      throw errorAt(app.appRoot, property.site.node, `fields "${found}" and "${property.name}" of ${owner} are both an HttpStatus: a response has one status`);
    }
    found = property.name;
  }
  return found;
}

function returnsNothing(type: ts.Type): boolean {
  const nothing = ts.TypeFlags.Void | ts.TypeFlags.Undefined;
  if (type.flags & nothing) return true;
  return type.isUnion() && type.types.every((member) => member.flags & nothing);
}
