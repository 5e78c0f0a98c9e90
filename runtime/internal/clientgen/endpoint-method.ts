import type { EndpointMeta, JSONSchema, RequestField, RequestMeta } from "../meta/types.ts";
import { argumentName, docBlock, identifier, member, propertyKey, quote } from "./names.ts";
import { REF_KEY, refOf, type TypeWriter } from "./type-text.ts";

const I1 = "    ";
const I2 = I1.repeat(2);
const I3 = I1.repeat(3);

/** The source of one ServiceClient method, indented for the class body; and whether it uses makeRecord. */
export interface RenderedMethod {
  readonly name: string;
  readonly code: string;
  readonly usesMakeRecord: boolean;
}

/** A typed, raw or stream endpoint as a method of its service's client. */
export function endpointMethod(endpoint: EndpointMeta, types: TypeWriter, ns: string): RenderedMethod {
  const name = identifier(endpoint.name);
  const pathArgs = pathArguments(endpoint, types, ns);
  const route = routeTemplate(endpoint);
  const doc = docBlock(endpoint.doc, I2);
  if (endpoint.kind === "stream") return streamMethod(endpoint, types, ns, { name, pathArgs, route, doc });
  if (endpoint.kind === "raw") {
    const methods = endpoint.methods.includes("*") ? "string" : endpoint.methods.map(quote).join(" | ");
    const args = [`method: ${methods}`, ...pathArgs, `body?: RequestInit["body"]`, "options?: CallParameters"].join(", ");
    const code = `${doc}${I2}public async ${name}(${args}): Promise<globalThis.Response> {\n${I3}return this.baseClient.callAPI(method, \`${route}\`, body, options)\n${I2}}\n`;
    return { name, code, usesMakeRecord: false };
  }

  const request = endpoint.request;
  const fields = request ? request.fields.filter(sentByClient) : [];
  const args = [...pathArgs];
  if (request && fields.length > 0) args.push(`params: ${types.type(paramsSchema(request, fields), ns, 2)}`);
  const response = endpoint.response ? types.type(endpoint.response, ns, 2) : "void";

  const lines: string[] = [];
  const query = fields.filter((f) => f.location === "query");
  const headers = fields.filter((f) => f.location === "header");
  const body = fields.filter((f) => f.location === "body");
  if (headers.length > 0 || query.length > 0) lines.push("// Convert our params into the objects we need for the request");
  if (headers.length > 0) {
    lines.push(`const headers = makeRecord<string>(${record(headers, request!, "header")})`, "");
  }
  if (query.length > 0) {
    lines.push(`const query = makeRecord<string | string[]>(${record(query, request!, "query")})`, "");
  }
  let bodyText = "";
  if (body.length > 0) {
    if (headers.length === 0 && query.length === 0) {
      bodyText = "JSON.stringify(params)";
    } else {
      const entries = body.map((f) => `${I1}${propertyKey(f.wireName)}: ${member("params", f.name)},`);
      lines.push("// The fields that travel in the body (not in the query string or headers)");
      lines.push(`const body: Record<string, unknown> = {\n${entries.join("\n")}\n}`, "");
      bodyText = "JSON.stringify(body)";
    }
  }
  const extras = [headers.length > 0 ? "headers" : "", query.length > 0 ? "query" : ""].filter(Boolean);
  const callArgs = [quote(defaultMethod(endpoint)), `\`${route}\``];
  if (bodyText || extras.length > 0) callArgs.push(bodyText || "undefined");
  if (extras.length > 0) callArgs.push(`{ ${extras.join(", ")} }`);
  const call = `this.baseClient.callTypedAPI(${callArgs.join(", ")})`;
  if (endpoint.response && endpoint.responseHeaders) {
    // As Encore's client: the body, then each header field from the response's headers.
    lines.push(`const resp = await ${call}`, `const rtn = await resp.json() as ${types.type(endpoint.response, ns, 0)}`);
    for (const field of endpoint.responseHeaders) {
      const value = `resp.headers.get(${quote(field.wireName)})`;
      // An optional one may be absent: a browser never shows Set-Cookie to a script, for one.
      if (field.optional) {
        lines.push(`${member("rtn", field.name)} = ${value} ?? undefined`);
      } else {
        lines.push(`${member("rtn", field.name)} = ${value} ?? (() => { throw new Error(${quote(`Header \`${field.wireName}\` was unexpectedly null`)}) })()`);
      }
    }
    lines.push("return rtn");
  } else if (endpoint.response) {
    lines.push(`const resp = await ${call}`, `return await resp.json() as ${types.type(endpoint.response, ns, 0)}`);
  } else {
    lines.push(`await ${call}`);
  }
  const bodyCode = lines.map((line) => (line === "" ? "" : indentLines(line, I3))).join("\n");
  const code = `${doc}${I2}public async ${name}(${args.join(", ")}): Promise<${response}> {\n${bodyCode}\n${I2}}\n`;
  return { name, code, usesMakeRecord: headers.length > 0 || query.length > 0 };
}

/**
 * A stream endpoint as Encore's client has it: path parameters, then `params` with the
 * handshake's other fields (headers, and the query string for the rest), answering the
 * open stream. The client's classes are named from its side: the server's api.streamOut
 * is a StreamIn (the client reads), api.streamIn a StreamOut (the client writes, then
 * gets the response), api.streamInOut a StreamInOut.
 */
function streamMethod(
  endpoint: EndpointMeta,
  types: TypeWriter,
  ns: string,
  parts: { name: string; pathArgs: readonly string[]; route: string; doc: string },
): RenderedMethod {
  const request = endpoint.request;
  const fields = request ? request.fields.filter(sentByClient) : [];
  const args = [...parts.pathArgs];
  if (request && fields.length > 0) args.push(`params: ${types.type(paramsSchema(request, fields), ns, 2)}`);
  const stream = endpoint.stream;
  const message = (schema: JSONSchema | null | undefined, indent: number) => (schema ? types.type(schema, ns, indent) : "void");
  const direction = stream?.direction ?? "inout";
  const create = direction === "out" ? "createStreamIn" : direction === "in" ? "createStreamOut" : "createStreamInOut";
  const typeArgs = (indent: number): string[] =>
    direction === "out" ? [message(stream?.outgoing, indent)] : [message(stream?.incoming, indent), message(stream?.outgoing, indent)];
  const className = create.slice("create".length);

  const lines: string[] = [];
  const headers = fields.filter((f) => f.location === "header");
  // A handshake has no body: what is not a header or in the path travels in the query string.
  const query = fields.filter((f) => f.location !== "header");
  if (headers.length > 0 || query.length > 0) lines.push("// Convert our params into the objects we need for the request");
  if (headers.length > 0) lines.push(`const headers = makeRecord<string>(${record(headers, request!, "header")})`, "");
  if (query.length > 0) lines.push(`const query = makeRecord<string | string[]>(${record(query, request!, "query")})`, "");
  const extras = [headers.length > 0 ? "headers" : "", query.length > 0 ? "query" : ""].filter(Boolean);
  const callArgs = [`\`${parts.route}\``, ...(extras.length > 0 ? [`{ ${extras.join(", ")} }`] : [])];
  lines.push(`return await this.baseClient.${create}<${typeArgs(0).join(", ")}>(${callArgs.join(", ")})`);
  const bodyCode = lines.map((line) => (line === "" ? "" : indentLines(line, I3))).join("\n");
  const returns = `${className}<${typeArgs(2).join(", ")}>`;
  const code = `${parts.doc}${I2}public async ${parts.name}(${args.join(", ")}): Promise<${returns}> {\n${bodyCode}\n${I2}}\n`;
  return { name: parts.name, code, usesMakeRecord: extras.length > 0 };
}

/** Encore's choice of method for the call: the first one, POST for "any method". */
function defaultMethod(endpoint: EndpointMeta): string {
  const first = endpoint.methods[0] ?? "POST";
  return first === "*" ? "POST" : first;
}

/**
 * Each path parameter as a leading argument. A wildcard is its segments as an array, as
 * Encore's client takes it (even though the handler gets one string), so front ends
 * written against Encore's client call it the same way.
 */
function pathArguments(endpoint: EndpointMeta, types: TypeWriter, ns: string): string[] {
  const schemas = (endpoint.request?.path?.["properties"] ?? {}) as Record<string, JSONSchema>;
  return endpoint.pathParams.map((param) => {
    const schema = schemas[param.name];
    if (param.wildcard) return `${argumentName(param.name)}: string[]`;
    const type = schema ? types.type(withoutDoc(schema), ns, 2) : "string";
    return `${argumentName(param.name)}: ${type}`;
  });
}

/** The route with each parameter encoded; a wildcard's segments are encoded one by one and joined with slashes. */
function routeTemplate(endpoint: EndpointMeta): string {
  const segments = endpoint.path.split("/").map((segment) => {
    const kind = segment[0];
    if (kind !== ":" && kind !== "*" && kind !== "!") return segment.replace(/[`\\$]/g, (c) => `\\${c}`);
    const arg = argumentName(segment.slice(1));
    if (kind === ":") return `\${encodeURIComponent(${arg})}`;
    return `\${${arg}.map(encodeURIComponent).join("/")}`;
  });
  return segments.join("/");
}

/**
 * The fields the client sends as parameters: not the path's (they are arguments) nor the
 * cookies, which, as in Encore's client, the browser sends by itself.
 */
export function sentByClient(field: RequestField): boolean {
  return field.location !== "path" && field.location !== "cookie";
}

/** The request without its path and cookie fields, under its type's name when it has one (as Encore strips them). */
export function paramsSchema(request: RequestMeta, fields: readonly RequestField[]): JSONSchema {
  const full = request.full;
  const properties = (full["properties"] ?? {}) as Record<string, JSONSchema>;
  const kept = new Set(fields.map((f) => f.name));
  const stripped: Record<string, unknown> = {
    type: "object",
    properties: Object.fromEntries(Object.entries(properties).filter(([key]) => kept.has(key))),
  };
  const required = ((full["required"] ?? []) as string[]).filter((key) => kept.has(key));
  if (required.length > 0) stripped["required"] = required;
  const ref = refOf(full);
  if (ref) stripped[REF_KEY] = ref;
  return stripped;
}

/** `{ wire: value, ... }` for the query string or the headers, each value turned into text. */
export function record(fields: readonly RequestField[], request: RequestMeta, location: "query" | "header", object = "params"): string {
  const properties = (request.full["properties"] ?? {}) as Record<string, JSONSchema>;
  const entries = [...fields]
    .sort((a, b) => (a.wireName < b.wireName ? -1 : a.wireName > b.wireName ? 1 : 0))
    .map((field) => `${I1}${propertyKey(field.wireName)}: ${textOf(field, properties[field.name] ?? {}, location, object)},`);
  return `{\n${entries.join("\n")}\n}`;
}

function textOf(field: RequestField, schema: JSONSchema, location: "query" | "header", object: string): string {
  const ref = member(object, field.name);
  if (schema["type"] === "array") {
    const items = (schema["items"] ?? {}) as JSONSchema;
    const mapped = isText(items) ? ref : `${ref}${field.optional ? "?" : ""}.map((v) => String(v))`;
    return location === "header" ? `${mapped}${field.optional ? "?" : ""}.join(", ")` : mapped;
  }
  if (isText(schema)) return ref;
  return field.optional ? `${ref} === undefined ? undefined : String(${ref})` : `String(${ref})`;
}

/**
 * Values that are strings already on the client (dates included: the client types them as ISO
 * strings). A decimal, a string in the client's types too, is still passed through String(),
 * as Encore's client does.
 */
function isText(schema: JSONSchema): boolean {
  if (schema["x-encore-type"] === "decimal") return false;
  if (schema["type"] === "string") return true;
  if (Array.isArray(schema["enum"])) return schema["enum"].every((v) => typeof v === "string");
  return "const" in schema && typeof schema["const"] === "string";
}

function withoutDoc(schema: JSONSchema): JSONSchema {
  const { description: _description, ...rest } = schema;
  return rest;
}

function indentLines(text: string, indent: string): string {
  return text
    .split("\n")
    .map((line) => (line === "" ? "" : indent + line))
    .join("\n");
}
