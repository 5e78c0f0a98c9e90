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

/** The response's fields that do not travel in its JSON body, found in one walk over its properties. */
export interface ResponseWireFields {
  /** `Header<...>` fields, which Encore sends as response headers (`sessionCookie?: Header<"Set-Cookie">`). */
  readonly headers: ResponseHeaderField[];
  /** `Cookie<...>` fields, sent as Set-Cookie with the options the handler sets (`{ value, httpOnly: true }`). */
  readonly cookies: ResponseHeaderField[];
  /** The `HttpStatus` field, whose value is the answer's status (runtimes/core/src/api/schema/httpstatus.rs); null without one. */
  readonly status: string | null;
}

/**
 * The response's header, cookie and status fields, refused as Encore refuses them: only text
 * fits a header (a `Query<...>` in a response has no query string to go to), a cookie's value
 * must fit a cookie as a request cookie's does, and a response has one status.
 */
export function responseWireFields(
  app: AppProgram,
  schemas: SchemaBuilder,
  signature: ts.Signature,
  handler: ts.Expression,
  endpoint: string,
): ResponseWireFields {
  const headers: ResponseHeaderField[] = [];
  const cookies: ResponseHeaderField[] = [];
  let status: string | null = null;
  const returned = signature.getReturnType();
  const type = app.checker.getAwaitedType(returned) ?? returned;
  if (returnsNothing(type)) return { headers, cookies, status };
  const owner = typeName(type) ?? `the response of ${endpoint}`;
  const headerNames = new Map<string, string>();
  const cookieNames = new Map<string, string>();
  for (const property of schemas.propertiesOf(type, { node: handler, owner, field: "" })) {
    const typeNode = property.declaration && declaredTypeNode(property.declaration);
    const fail = (message: string) => errorAt(app.appRoot, property.site.node, message);
    if (isHttpStatusField(app.checker, typeNode)) {
      if (status !== null) throw fail(`fields "${status}" and "${property.name}" of ${owner} are both an HttpStatus: a response has one status`);
      status = property.name;
      continue;
    }
    const wrapper = fieldWrapperOf(app.checker, typeNode);
    if (!wrapper) continue;
    if (wrapper.location === "query") throw fail(`field "${property.name}" of ${owner} is a Query<...>: a response has no query string`);
    const cookie = wrapper.location === "cookie";
    if (cookie && !fitsCookie(property.schema)) {
      throw fail(`field "${property.name}" of ${owner} is a response cookie, whose value must be a string, number, boolean, enum, Date or Decimal`);
    }
    if (!cookie && property.schema["type"] !== "string") throw fail(`field "${property.name}" of ${owner} is a response header, which must be a string`);
    // Header names are case-insensitive; a cookie's name keeps its case.
    const wireName = cookie ? (wrapper.wireName ?? property.name) : (wrapper.wireName ?? property.name).toLowerCase();
    const names = cookie ? cookieNames : headerNames;
    const other = names.get(wireName);
    if (other !== undefined) {
      throw fail(cookie ? `fields "${other}" and "${property.name}" both set the cookie "${wireName}"` : `fields "${other}" and "${property.name}" both use the response header "${wireName}"`);
    }
    names.set(wireName, property.name);
    (cookie ? cookies : headers).push({ name: property.name, wireName, optional: property.optional });
  }
  return { headers, cookies, status };
}

/** A `Cookie<...>` field's schema (`{ value, ... }`) whose value is text, a number, a boolean or an enum. */
function fitsCookie(schema: JSONSchema): boolean {
  const value = (schema["properties"] as Record<string, JSONSchema> | undefined)?.["value"];
  const valueType = value?.["type"];
  return value !== undefined && (valueType === "string" || valueType === "number" || valueType === "boolean" || Array.isArray(value["enum"]) || "const" in value);
}

function returnsNothing(type: ts.Type): boolean {
  const nothing = ts.TypeFlags.Void | ts.TypeFlags.Undefined;
  if (type.flags & nothing) return true;
  return type.isUnion() && type.types.every((member) => member.flags & nothing);
}
