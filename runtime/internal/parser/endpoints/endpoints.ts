import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import type { EndpointKind, EndpointMeta, PathParam, StaticMeta } from "../../meta/types.ts";
import { methodsOf, readEndpointOptions, type EndpointOptions } from "./endpoint-options.ts";
import { docCommentBefore } from "../program/doc-comments.ts";
import { errorAt, locationOf, toAppPath } from "../program/errors.ts";
import type { AppProgram } from "../program/program.ts";
import { buildRequest, checkNoPathParams } from "./request.ts";
import { responseBodySchema } from "../../meta/response-body.ts";
import { buildResponse, responseWireFields } from "./response.ts";
import { parsePath } from "./routes.ts";
import type { SchemaBuilder } from "../schema/schema.ts";
import { isSdkExport, sdkExportOf } from "../sdk/sdk-symbols.ts";
import { serviceOfFile, type ServiceInfo } from "../services/services.ts";
import { STREAM_CONSTRUCTORS, streamParts, type StreamConstructor } from "./stream-endpoints.ts";

/**
 * Every endpoint of the app, in file order then source order. As in Encore, an endpoint is
 * any call of `api` or one of its kinds, wherever it is written: each must be declared as
 * `export const name = api(...)` at the top level of a file, or the app is refused (the
 * runtime serves endpoints by those names; one written anywhere else would never be served).
 */
export function findEndpoints(app: AppProgram, services: readonly ServiceInfo[], schemas: SchemaBuilder): EndpointMeta[] {
  const endpoints: EndpointMeta[] = [];
  for (const file of app.files) {
    const visit = (node: ts.Node): void => {
      const kind = ts.isCallExpression(node) ? endpointKindOf(app, node) : undefined;
      if (kind) endpoints.push(declaredEndpoint(app, schemas, services, node as ts.CallExpression, kind));
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return endpoints;
}

function declaredEndpoint(app: AppProgram, schemas: SchemaBuilder, services: readonly ServiceInfo[], call: ts.CallExpression, kind: EndpointKind): EndpointMeta {
  const declaration = call.parent;
  const statement = declaration.parent?.parent;
  const topLevel =
    ts.isVariableDeclaration(declaration) &&
    declaration.initializer === call &&
    ts.isIdentifier(declaration.name) &&
    statement !== undefined &&
    ts.isVariableStatement(statement) &&
    ts.isSourceFile(statement.parent) &&
    (statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) ?? false);
  if (!topLevel) throw errorAt(app.appRoot, call, "API endpoints must be declared as `export const name = api(...)` at the top level of a file");
  const name = declaration.name;
  const service = serviceOfFile(services, call.getSourceFile().fileName);
  if (!service) {
    throw errorAt(app.appRoot, declaration, `endpoint ${name.text} is not inside a service: no encore.service.ts in its folder or any parent`);
  }
  return endpointMeta(app, schemas, { kind, call, name, service, doc: docCommentBefore(statement) });
}

interface Declared {
  readonly kind: EndpointKind;
  readonly call: ts.CallExpression;
  readonly name: ts.Identifier;
  readonly service: ServiceInfo;
  readonly doc: string | null;
}

/** The kind of endpoint `call` declares: `api(...)`, `api.raw(...)`, ...; undefined when it calls something else. */
function endpointKindOf(app: AppProgram, call: ts.CallExpression): EndpointKind | undefined {
  const callee = call.expression;
  if (isSdkExport(sdkExportOf(app.checker, callee), "api", "api")) return "typed";
  if (!ts.isPropertyAccessExpression(callee) || !isSdkExport(sdkExportOf(app.checker, callee.expression), "api", "api")) {
    return undefined;
  }
  const member = callee.name.text;
  if (member === "raw" || member === "static") return member;
  if (STREAM_CONSTRUCTORS.has(member)) return "stream";
  throw errorAt(app.appRoot, call, `api.${member} is not a kind of endpoint encore.dev has (api, api.raw, api.static, ${[...STREAM_CONSTRUCTORS].map((s) => `api.${s}`).join(", ")})`);
}

function endpointMeta(app: AppProgram, schemas: SchemaBuilder, declared: Declared): EndpointMeta {
  const { kind, call, service } = declared;
  const name = declared.name.text;
  const label = `${service.name}.${name}`;
  const options = readEndpointOptions(app.appRoot, call.arguments[0], kind, label, call);
  const methods = methodsOf(options, kind);
  const pathNode = options.nodes["path"] ?? call;
  const routePath = (options.values["path"] as string | undefined) ?? `/${service.name}.${name}`;
  const pathParams = parsePath(routePath);
  if (typeof pathParams === "string") throw errorAt(app.appRoot, pathNode, `endpoint ${label}: ${pathParams}`);

  const { file, line } = locationOf(app.appRoot, declared.name);
  const bodyLimit = options.values["bodyLimit"] as number | null | undefined;
  const meta: EndpointMeta = {
    service: service.name,
    name,
    kind,
    file,
    line,
    doc: declared.doc,
    expose: options.values["expose"] === true,
    auth: options.values["auth"] === true,
    methods,
    path: routePath,
    pathParams,
    ...(bodyLimit === undefined ? {} : { bodyLimit }),
    tags: (options.values["tags"] as string[] | undefined) ?? [],
    sensitive: options.values["sensitive"] === true,
    request: null,
    response: null,
  };
  if (kind === "raw") return meta;
  if (kind === "static") {
    checkStaticPath(app, routePath, pathNode, label);
    return { ...meta, static: staticMeta(app, call, options, label) };
  }
  if (kind === "stream") {
    const factory = (call.expression as ts.PropertyAccessExpression).name.text as StreamConstructor;
    return { ...meta, ...streamParts(app, schemas, { factory, call, label, pathParams, pathNode }) };
  }
  return { ...meta, ...typedParts(app, schemas, { call, label, methods, pathParams, pathNode }) };
}

interface TypedInput {
  readonly call: ts.CallExpression;
  readonly label: string;
  readonly methods: readonly string[];
  readonly pathParams: readonly PathParam[];
  readonly pathNode: ts.Node;
}

function typedParts(app: AppProgram, schemas: SchemaBuilder, input: TypedInput): Pick<EndpointMeta, "request" | "response" | "responseHeaders" | "responseCookies" | "httpStatusField"> {
  const handler = input.call.arguments[1];
  if (!handler) throw errorAt(app.appRoot, input.call, `endpoint ${input.label} has no handler function`);
  const [signature] = app.checker.getTypeAtLocation(handler).getCallSignatures();
  if (!signature) throw errorAt(app.appRoot, handler, `the handler of endpoint ${input.label} is not a function`);

  const [parameter] = signature.getParameters();
  const parameterType = parameter && app.checker.getTypeOfSymbol(parameter);
  if (!parameter || !parameterType || parameterType.flags & ts.TypeFlags.Void) {
    checkNoPathParams(app, { endpoint: input.label, pathParams: input.pathParams, pathNode: input.pathNode });
    return { request: null, ...responseParts(app, schemas, signature, handler, input.label) };
  }
  const request = buildRequest(app, schemas, {
    endpoint: input.label,
    type: parameterType,
    node: parameter.valueDeclaration ?? handler,
    methods: input.methods,
    pathParams: input.pathParams,
    pathNode: input.pathNode,
  });
  return { request, ...responseParts(app, schemas, signature, handler, input.label) };
}

/**
 * The response's schema (header fields included, as the handler returns them; cookie fields
 * and its HttpStatus field left out, as Encore's client and OpenAPI leave them out, and
 * Encore the status field out of the body), its header and cookie fields and its status
 * field, when it has them.
 */
function responseParts(
  app: AppProgram,
  schemas: SchemaBuilder,
  signature: ts.Signature,
  handler: ts.Expression,
  label: string,
): Pick<EndpointMeta, "response" | "responseHeaders" | "responseCookies" | "httpStatusField"> {
  const full = buildResponse(app, schemas, signature, handler, label);
  const { headers, cookies, status } = full ? responseWireFields(app, schemas, signature, handler, label) : { headers: [], cookies: [], status: null };
  const response = full && responseBodySchema(full, [...cookies, ...(status !== null ? [{ name: status }] : [])]);
  return {
    response,
    ...(headers.length > 0 && { responseHeaders: headers }),
    ...(cookies.length > 0 && { responseCookies: cookies }),
    ...(status !== null && { httpStatusField: status }),
  };
}

/** Encore's rule: a static path has at most one dynamic segment, and it comes last. */
function checkStaticPath(app: AppProgram, routePath: string, pathNode: ts.Node, label: string): void {
  const segments = routePath.split("/").slice(1);
  const dynamic = segments.findIndex((segment) => /^[:*!]/.test(segment));
  if (dynamic !== -1 && dynamic !== segments.length - 1) {
    throw errorAt(app.appRoot, pathNode, `endpoint ${label}: a static path may have one dynamic segment, at its end, not "${routePath}"`);
  }
}

function staticMeta(app: AppProgram, call: ts.CallExpression, options: EndpointOptions, label: string): StaticMeta {
  const fileDir = path.dirname(call.getSourceFile().fileName);
  // Encore resolves these against the declaring file; the runtime only knows the app root.
  const fromApp = (option: string): string => {
    const resolved = path.resolve(fileDir, options.values[option] as string);
    const relative = toAppPath(app.appRoot, resolved);
    if (relative.startsWith("..") || path.isAbsolute(relative)) {
      throw errorAt(app.appRoot, options.nodes[option] ?? call, `option "${option}" of endpoint ${label} points outside the app`);
    }
    return relative || ".";
  };
  const notFoundStatus = options.values["notFoundStatus"] as number | undefined;
  const headers = options.values["headers"] as StaticMeta["headers"] | undefined;
  // As Encore's parser checks them: a typo here would otherwise only show as 404s.
  const dir = fromApp("dir");
  if (!fs.statSync(path.resolve(app.appRoot, dir), { throwIfNoEntry: false })?.isDirectory()) {
    throw errorAt(app.appRoot, options.nodes["dir"] ?? call, `option "dir" of endpoint ${label}: folder ${dir} does not exist`);
  }
  const notFound = options.values["notFound"] === undefined ? undefined : fromApp("notFound");
  if (notFound !== undefined && !fs.statSync(path.resolve(app.appRoot, notFound), { throwIfNoEntry: false })?.isFile()) {
    throw errorAt(app.appRoot, options.nodes["notFound"] ?? call, `option "notFound" of endpoint ${label}: file ${notFound} does not exist`);
  }
  return {
    dir,
    ...(notFound === undefined ? {} : { notFound }),
    ...(notFoundStatus === undefined ? {} : { notFoundStatus }),
    ...(headers === undefined ? {} : { headers }),
  };
}
