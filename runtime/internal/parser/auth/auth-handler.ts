import ts from "typescript";
import type { AuthHandlerMeta, JSONSchema, RequestMeta, SourceLocation } from "../../meta/types.ts";
import { errorAt, locationOf } from "../program/errors.ts";
import { fieldWrapperOf } from "../endpoints/field-wrappers.ts";
import type { AppProgram } from "../program/program.ts";
import { buildRequest, declaredTypeNode } from "../endpoints/request.ts";
import { typeName, type SchemaBuilder } from "../schema/schema.ts";
import { isSdkExport, sdkExportOf } from "../sdk/sdk-symbols.ts";
import { serviceOfFile, type ServiceInfo } from "../services/services.ts";

interface DeclaredHandler {
  readonly call: ts.CallExpression;
  /** The variable it is bound to: its own, or the one holding the Gateway it is written inside. */
  readonly declaration: ts.VariableDeclaration;
  readonly name: string;
  readonly service: ServiceInfo;
  readonly location: SourceLocation;
}

interface DeclaredGateway {
  readonly location: SourceLocation;
  /** The expression given as `authHandler`, if any. */
  readonly authHandler: ts.Expression | undefined;
}

/**
 * The app's auth handler, as Encore reads it: an `authHandler(fn)` call bound to a variable
 * (exported or not, or written inline in the Gateway's options, where it takes the name of
 * the variable holding the Gateway), inside a service, at most one in the app, run by the
 * one `new Gateway({ authHandler })`. The runtime reaches it through that Gateway, as
 * Encore's does, so it need not be exported. Its parameters are read like an endpoint's
 * request, but only `Header<>` and `Query<>` fields are allowed; what it resolves to must
 * be an object type with `userID: string`.
 */
export function findAuthHandler(app: AppProgram, services: readonly ServiceInfo[], schemas: SchemaBuilder): AuthHandlerMeta | null {
  const handlers: DeclaredHandler[] = [];
  const gateways: DeclaredGateway[] = [];
  for (const file of app.files) {
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && isSdkExport(sdkExportOf(app.checker, node.expression), "auth", "authHandler")) {
        handlers.push(declaredHandler(app, services, node, handlers[0]));
      } else if (ts.isNewExpression(node) && isSdkExport(sdkExportOf(app.checker, node.expression), "api", "Gateway")) {
        gateways.push(declaredGateway(app, services, node, gateways[0]));
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  const [handler] = handlers;
  const [gateway] = gateways;
  if (gateway?.authHandler && (!handler || !refersTo(app, gateway.authHandler, handler))) {
    throw errorAt(app.appRoot, gateway.authHandler, "the authHandler of the Gateway must be the app's auth handler: a variable holding `authHandler(...)`, or the call itself");
  }
  if (!handler) return null;
  if (!gateway?.authHandler) {
    throw errorAt(app.appRoot, handler.declaration, `auth handler ${handler.name} is not attached to a Gateway, so it would never run: add \`export const gateway = new Gateway({ authHandler: ${handler.name} })\``);
  }
  return {
    service: handler.service.name,
    name: handler.name,
    exportName: exportNameOf(app, handler),
    ...handler.location,
    ...signatureParts(app, schemas, handler),
    gateway: gateway.location,
  };
}

function declaredHandler(app: AppProgram, services: readonly ServiceInfo[], call: ts.CallExpression, first: DeclaredHandler | undefined): DeclaredHandler {
  // Encore binds a resource to the nearest variable declaration around it.
  let declaration: ts.Node = call.parent;
  while (!ts.isVariableDeclaration(declaration) && !ts.isSourceFile(declaration)) declaration = declaration.parent;
  if (!ts.isVariableDeclaration(declaration)) throw errorAt(app.appRoot, call, "an auth handler must be bound to a variable: `const name = authHandler(...)`");
  if (!ts.isIdentifier(declaration.name)) throw errorAt(app.appRoot, declaration.name, "an auth handler must be bound to a plain variable name, not a destructuring pattern");
  const name = declaration.name.text;
  const service = serviceOfFile(services, call.getSourceFile().fileName);
  if (!service) {
    throw errorAt(app.appRoot, call, `auth handler ${name} is not inside a service: no encore.service.ts in its folder or any parent`);
  }
  const location = locationOf(app.appRoot, declaration.initializer === call ? declaration.name : call);
  if (first) {
    throw errorAt(app.appRoot, call, `auth handler ${name} clashes with auth handler ${first.name} at ${first.location.file}:${first.location.line}: an app has at most one auth handler`);
  }
  return { call, declaration, name, service, location };
}

function declaredGateway(app: AppProgram, services: readonly ServiceInfo[], node: ts.NewExpression, first: DeclaredGateway | undefined): DeclaredGateway {
  if (first) throw errorAt(app.appRoot, node, `a Gateway is already declared at ${first.location.file}:${first.location.line}: an app has one Gateway`);
  if (!serviceOfFile(services, node.getSourceFile().fileName)) throw errorAt(app.appRoot, node, "the Gateway must be declared inside a service");
  const location = locationOf(app.appRoot, node);
  const config = node.arguments?.[0];
  if (!config) return { location, authHandler: undefined };
  if (!ts.isObjectLiteralExpression(config)) throw errorAt(app.appRoot, config, "the config of new Gateway(...) must be an object literal");
  for (const property of config.properties) {
    if (property.name && ts.isIdentifier(property.name) && property.name.text === "authHandler") {
      if (ts.isShorthandPropertyAssignment(property)) return { location, authHandler: property.name };
      if (ts.isPropertyAssignment(property)) return { location, authHandler: property.initializer };
    }
  }
  return { location, authHandler: undefined };
}

/** Whether the Gateway's `authHandler` is the handler: the call itself, or a name for the variable it initializes. */
function refersTo(app: AppProgram, expr: ts.Expression, handler: DeclaredHandler): boolean {
  const inner = unwrapped(expr);
  if (inner === handler.call) return true;
  const parent = expr.parent;
  let symbol =
    ts.isShorthandPropertyAssignment(parent) && parent.name === expr
      ? app.checker.getShorthandAssignmentValueSymbol(parent)
      : app.checker.getSymbolAtLocation(inner);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = app.checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration;
  return declaration === handler.declaration && unwrapped(handler.declaration.initializer ?? expr) === handler.call;
}

/** The expression inside parentheses and type assertions (`(x)`, `x as T`, `x satisfies T`, `x!`). */
function unwrapped(expr: ts.Expression): ts.Expression {
  let inner = expr;
  while (ts.isParenthesizedExpression(inner) || ts.isAsExpression(inner) || ts.isSatisfiesExpression(inner) || ts.isNonNullExpression(inner) || ts.isTypeAssertionExpression(inner)) {
    inner = inner.expression;
  }
  return inner;
}

/** The name its module exports it under, so generated code can import its type; null when it is not exported. */
function exportNameOf(app: AppProgram, handler: DeclaredHandler): string | null {
  if (handler.declaration.initializer === undefined || unwrapped(handler.declaration.initializer) !== handler.call) return null;
  const moduleSymbol = app.checker.getSymbolAtLocation(handler.call.getSourceFile());
  if (!moduleSymbol) return null;
  for (const exported of app.checker.getExportsOfModule(moduleSymbol)) {
    const target = exported.flags & ts.SymbolFlags.Alias ? app.checker.getAliasedSymbol(exported) : exported;
    if (target.valueDeclaration === handler.declaration) return exported.name;
  }
  return null;
}

/**
 * The declared types: the type arguments when given (`authHandler<Params, AuthData>(...)`),
 * else the function's own annotations or inferred types. Not the call's resolved signature:
 * where inference breaks the SDK's `{ userID: string }` constraint, TypeScript quietly
 * falls back to the constraint, and the parser would see a userID the app never declared.
 */
function signatureParts(app: AppProgram, schemas: SchemaBuilder, handler: DeclaredHandler): { params: RequestMeta; authData: JSONSchema } {
  const { checker } = app;
  const { call, name } = handler;
  const fn = call.arguments[0];
  if (!fn) throw errorAt(app.appRoot, call, `auth handler ${name} has no handler function`);
  const [own] = checker.getTypeAtLocation(fn).getCallSignatures();
  if (!own) throw errorAt(app.appRoot, fn, `auth handler ${name} is not a function`);
  const [paramsArg, dataArg] = call.typeArguments ?? [];
  const [parameter] = own.getParameters();
  const paramsType = paramsArg ? checker.getTypeFromTypeNode(paramsArg) : parameter && checker.getTypeOfSymbol(parameter);
  const paramNode = paramsArg ?? parameter?.valueDeclaration ?? fn;
  let dataType: ts.Type;
  if (dataArg) dataType = checker.getTypeFromTypeNode(dataArg);
  else {
    const returned = own.getReturnType();
    dataType = checker.getNonNullableType(checker.getAwaitedType(returned) ?? returned);
  }
  const dataNode = dataArg ?? (own.getDeclaration() as ts.SignatureDeclaration | undefined)?.type ?? fn;
  return { params: paramsOf(app, schemas, handler, paramsType, paramNode), authData: authDataOf(app, schemas, name, dataType, dataNode) };
}

function paramsOf(app: AppProgram, schemas: SchemaBuilder, handler: DeclaredHandler, type: ts.Type | undefined, node: ts.Node): RequestMeta {
  const { name } = handler;
  if (!type || !(type.flags & ts.TypeFlags.Object)) {
    throw errorAt(app.appRoot, node, `the parameters of auth handler ${name} must be an object type of Header<...>, Query<...> and Cookie<...> fields`);
  }
  const params = buildRequest(app, schemas, { endpoint: `auth handler ${name}`, type, node, methods: ["GET"], pathParams: [], pathNode: handler.call });
  const owner = typeName(type) ?? `the parameters of auth handler ${name}`;
  for (const property of schemas.propertiesOf(type, { node, owner, field: "" })) {
    const declared = property.declaration && declaredTypeNode(property.declaration);
    if (!fieldWrapperOf(app.checker, declared)) {
      throw errorAt(app.appRoot, property.site.node, `field "${property.name}" of ${owner} must be a Header<...>, Query<...> or Cookie<...>: an auth handler reads only headers, the query string and cookies`);
    }
  }
  if (params.fields.length === 0) {
    throw errorAt(app.appRoot, node, `auth handler ${name} reads no header, query parameter or cookie, so it would never run: declare one, e.g. authorization: Header<"Authorization">`);
  }
  return params;
}

function authDataOf(app: AppProgram, schemas: SchemaBuilder, name: string, type: ts.Type, node: ts.Node): JSONSchema {
  const { checker } = app;
  const userID = type.flags & ts.TypeFlags.Object ? checker.getPropertyOfType(type, "userID") : undefined;
  const userIDType = userID && checker.getTypeOfSymbol(userID);
  const fits =
    userID !== undefined &&
    userIDType !== undefined &&
    !(userID.flags & ts.SymbolFlags.Optional) &&
    !(userIDType.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) &&
    checker.isTypeAssignableTo(userIDType, checker.getStringType()) &&
    !checker.isArrayType(type) &&
    type.getCallSignatures().length === 0;
  if (!fits) {
    const text = checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
    throw errorAt(app.appRoot, node, `the auth data of auth handler ${name} must be an object type with a \`userID: string\` field, not "${text}"`);
  }
  return schemas.schemaOf(type, { node, owner: typeName(type) ?? `the auth data of auth handler ${name}`, field: "" });
}
