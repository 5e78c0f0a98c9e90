import ts from "typescript";
import type { FieldLocation, JSONSchema, PathParam, RequestField, RequestMeta } from "../../meta/types.ts";
import { errorAt } from "../program/errors.ts";
import { fieldWrapperOf } from "./field-wrappers.ts";
import type { AppProgram } from "../program/program.ts";
import { REF_KEY, typeName, type PropertySchema, type SchemaBuilder, type SchemaSite } from "../schema/schema.ts";

export interface RequestInput {
  /** "service.endpoint", for messages. */
  readonly endpoint: string;
  /** The type of the handler's first parameter. */
  readonly type: ts.Type;
  /** The parameter declaration. */
  readonly node: ts.Node;
  readonly methods: readonly string[];
  readonly pathParams: readonly PathParam[];
  /** Where the path is written, for missing path parameter errors. */
  readonly pathNode: ts.Node;
}

interface PlacedField {
  readonly field: RequestField;
  readonly property: PropertySchema;
  /** What travels on the wire: the property's schema, or a cookie's value schema. */
  readonly wire: JSONSchema;
}

// Methods whose requests carry a body; "*" is treated as one since it includes POST.
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "*"]);

/** Splits the request type's fields into path, query, header, cookie and body, as Encore does. */
export function buildRequest(app: AppProgram, schemas: SchemaBuilder, input: RequestInput): RequestMeta {
  const owner = typeName(input.type) ?? `the request of ${input.endpoint}`;
  const site: SchemaSite = { node: input.node, owner, field: "" };
  if (!isPlainObjectType(app.checker, input.type)) {
    schemas.fail(site, input.type, "the request parameter must be an object type");
  }
  if (app.checker.getIndexInfosOfType(input.type).length > 0) {
    schemas.fail(site, input.type, "request types cannot have index signatures; every field needs a name");
  }
  const pathNames = new Set(input.pathParams.map((param) => param.name));
  const defaultLocation: FieldLocation = input.methods.every((method) => BODY_METHODS.has(method)) ? "body" : "query";

  const placed: PlacedField[] = schemas.propertiesOf(input.type, site).map((property) => {
    const typeNode = property.declaration && declaredTypeNode(property.declaration);
    const wrapper = fieldWrapperOf(app.checker, typeNode);
    const isPath = pathNames.has(property.name);
    if (isPath && wrapper) {
      throw errorAt(app.appRoot, property.site.node, `field "${property.name}" of ${owner} is a path parameter and cannot be a ${wrapper.location} as well`);
    }
    const location: FieldLocation = isPath ? "path" : (wrapper?.location ?? defaultLocation);
    const named = wrapper?.wireName ?? property.name;
    const wireName = location === "header" ? named.toLowerCase() : named;
    const wire = location === "cookie" ? cookieValueSchema(schemas, property) : property.schema;
    checkWireType(schemas, { ...property, schema: wire }, location, input.pathParams);
    return { field: { name: property.name, location, wireName, optional: property.optional }, property, wire };
  });

  for (const param of input.pathParams) {
    if (!placed.some(({ field }) => field.location === "path" && field.name === param.name)) {
      const typeText = app.checker.typeToString(input.type);
      throw errorAt(app.appRoot, input.pathNode, `path parameter "${param.name}" of endpoint ${input.endpoint} is not a field of its request type "${typeText}"`);
    }
  }

  // A wildcard or fallback segment that matched nothing ("/" for "/!path") is absent, as in
  // Encore, whose router then takes the route without the segment; its field cannot be required.
  const mayBeAbsent = new Set(input.pathParams.filter((param) => param.wildcard).map((param) => param.name));
  return {
    fields: placed.map(({ field }) => field),
    path: locationSchema(app, placed, "path", mayBeAbsent),
    query: locationSchema(app, placed, "query"),
    headers: locationSchema(app, placed, "header"),
    body: locationSchema(app, placed, "body"),
    ...(placed.some(({ field }) => field.location === "cookie") && { cookies: locationSchema(app, placed, "cookie") }),
    full: withRef(objectSchema(placed.map(({ field, property }) => [field.name, property.schema, field.optional])), schemas.namedRef(input.type)),
  };
}

/** A handler without parameters cannot receive path parameters. */
export function checkNoPathParams(app: AppProgram, input: Omit<RequestInput, "type" | "node" | "methods">): void {
  const [first] = input.pathParams;
  if (first) {
    throw errorAt(app.appRoot, input.pathNode, `path parameter "${first.name}" of endpoint ${input.endpoint} is not a field of the request: the handler takes no parameters`);
  }
}

function isPlainObjectType(checker: ts.TypeChecker, type: ts.Type): boolean {
  if (type.isIntersection()) return type.types.every((member) => isPlainObjectType(checker, member));
  if (!(type.flags & ts.TypeFlags.Object)) return false;
  return !checker.isArrayType(type) && !checker.isTupleType(type) && type.getCallSignatures().length === 0;
}

/** The type as written on a property declaration, where `Header<...>` and `Query<...>` are still visible. */
export function declaredTypeNode(declaration: ts.Declaration): ts.TypeNode | undefined {
  if (ts.isPropertySignature(declaration) || ts.isPropertyDeclaration(declaration)) return declaration.type;
  return undefined;
}

const WIRE_RULES: Readonly<Record<Exclude<FieldLocation, "body">, string>> = {
  path: "path parameters must be a string, number, boolean or enum",
  query: "query parameters must be a string, number, boolean, enum, Date or an array of those",
  header: "headers must be a string, number, boolean, enum or Date",
  cookie: "cookies must be a string, number, boolean, enum, Date or Decimal",
};

/** `Cookie<T, "name">` is the object `{ value: T, ...options }`: its value is what the Cookie header carries. */
function cookieValueSchema(schemas: SchemaBuilder, property: PropertySchema): JSONSchema {
  const value = (property.schema["properties"] as Record<string, JSONSchema> | undefined)?.["value"];
  if (!value) schemas.fail(property.site, property.type, "a Cookie<...> field must be encore.dev/api's Cookie type, with a value");
  return value;
}

/** Path, query and header values arrive as text, so only types that can be parsed from text fit. */
function checkWireType(schemas: SchemaBuilder, property: PropertySchema, location: FieldLocation, pathParams: readonly PathParam[]): void {
  if (location === "body") return;
  const schema = property.schema;
  const kind = scalarKind(schema);
  const fits =
    location === "path"
      ? kind === "scalar"
      : location === "header" || location === "cookie"
        ? kind !== undefined
        : kind !== undefined || (schema["type"] === "array" && scalarKind(schema["items"] as JSONSchema) !== undefined);
  const wildcard = pathParams.find((param) => param.name === property.name)?.wildcard;
  if (fits && !(wildcard && schema["type"] !== "string")) return;
  const reason = wildcard ? "wildcard path parameters must be strings" : WIRE_RULES[location];
  schemas.fail(property.site, withoutUndefined(schemas, property.type), reason);
}

/** An optional field's type without the `| undefined` that optionality adds, for messages. */
function withoutUndefined(schemas: SchemaBuilder, type: ts.Type): ts.Type {
  const hasNull = type.isUnion() && type.types.some((member) => member.flags & ts.TypeFlags.Null);
  return hasNull ? type : schemas.checker.getNonNullableType(type);
}

// A Decimal fits a query, a header or a cookie; Encore's parser refuses one in the path.
function scalarKind(schema: JSONSchema | undefined): "scalar" | "date" | "decimal" | undefined {
  if (!schema) return undefined;
  if ("const" in schema) return ["string", "number", "boolean"].includes(typeof schema["const"]) ? "scalar" : undefined;
  if (Array.isArray(schema["enum"])) {
    return schema["enum"].every((value) => typeof value === "string" || typeof value === "number") ? "scalar" : undefined;
  }
  if (schema["x-encore-type"] === "date") return "date";
  if (schema["x-encore-type"] === "decimal") return "decimal";
  const type = schema["type"];
  return type === "string" || type === "number" || type === "boolean" ? "scalar" : undefined;
}

function locationSchema(
  app: AppProgram,
  placed: readonly PlacedField[],
  location: FieldLocation,
  mayBeAbsent: ReadonlySet<string> = new Set(),
): JSONSchema | null {
  const here = placed.filter(({ field }) => field.location === location);
  if (here.length === 0) return null;
  const seen = new Map<string, string>();
  for (const { field, property } of here) {
    const other = seen.get(field.wireName);
    if (other !== undefined) {
      throw errorAt(app.appRoot, property.site.node, `fields "${other}" and "${field.name}" both use the ${location} name "${field.wireName}"`);
    }
    seen.set(field.wireName, field.name);
  }
  return objectSchema(here.map(({ field, wire }) => [field.wireName, wire, field.optional || mayBeAbsent.has(field.name)]));
}

/** The whole request keeps the name of its type, for generated clients (which leave its path fields out). */
function withRef(schema: JSONSchema, ref: ReturnType<SchemaBuilder["namedRef"]>): JSONSchema {
  return ref ? { ...schema, [REF_KEY]: ref } : schema;
}

function objectSchema(entries: readonly (readonly [string, JSONSchema, boolean])[]): JSONSchema {
  const properties: Record<string, JSONSchema> = {};
  const required: string[] = [];
  for (const [key, schema, optional] of entries) {
    properties[key] = schema;
    if (!optional) required.push(key);
  }
  return required.length > 0 ? { type: "object", properties, required } : { type: "object", properties };
}
