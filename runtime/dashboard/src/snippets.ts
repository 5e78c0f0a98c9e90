// The explorer's request as a curl command against the app, and as a call with the
// app's generated TypeScript client (named as runtime/internal/clientgen names it).
import type { CatalogEndpoint, CatalogField, ExplorerAuth, ExplorerRequest } from "../../internal/dashboard/api.ts";
import { argumentName, member, propertyKey } from "../../internal/clientgen/names.ts";

/** A word for a POSIX shell: single-quoted, with its own single quotes spliced in. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

export function requestUrl(baseUrl: string, request: Pick<ExplorerRequest, "path" | "query">): string {
  const query = new URLSearchParams(request.query.map(([k, v]): [string, string] => [k, v])).toString();
  return `${baseUrl.replace(/\/+$/, "")}${request.path}${query ? `?${query}` : ""}`;
}

/** curl, one header or body option a line; null for an internal endpoint, which the app answers only to its own services (and the dashboard). */
export function curlCommand(baseUrl: string, endpoint: CatalogEndpoint, request: ExplorerRequest, auth: ExplorerAuth): string | null {
  if (!endpoint.expose) return null;
  const head = ["curl"];
  if (request.method !== "GET" || request.body !== null) head.push(`-X ${request.method}`);
  head.push(shellQuote(requestUrl(baseUrl, request)));
  const parts = [head.join(" ")];
  const headers = Object.entries(request.headers).filter(([name]) => name.trim() !== "");
  const has = (name: string) => headers.some(([h]) => h.toLowerCase() === name);
  if (request.body !== null && !has("content-type")) headers.push(["Content-Type", "application/json"]);
  if (auth.kind === "bearer" && !has("authorization")) headers.push(["Authorization", `Bearer ${auth.token}`]);
  for (const [name, value] of headers) parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (request.body !== null) parts.push(`--data ${shellQuote(request.body)}`);
  return parts.join(" \\\n  ");
}

/** A JavaScript literal for a JSON value: keys bare where they can be, two-space indents. */
export function literal(value: unknown, indent = ""): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${inner}${literal(v, inner)}`).join(",\n")},\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([k, v]) => `${inner}${propertyKey(k)}: ${literal(v, inner)}`).join(",\n")},\n${indent}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}

/**
 * `await client.<service>.<endpoint>(...)` as the generated client takes it: path
 * parameters first (a wildcard as its segments), then the other fields in one object.
 * Values typed from the explorer's text where the field's type says number or boolean.
 */
export function typescriptCall(endpoint: CatalogEndpoint, request: ExplorerRequest): string {
  const target = member(member("client", endpoint.service), endpoint.name);
  if (endpoint.kind === "static") return "// Static files are not in the generated client: fetch them by URL.";
  const pathValues = pathArguments(endpoint.path, request.path);
  const fields = endpoint.request?.fields ?? [];
  if (!endpoint.expose) {
    // An internal endpoint is left out of the generated client; the app's services call it with the whole parameter object.
    const params = paramsObject(fields, request, true, pathValues);
    const call = `await ${member(endpoint.service, endpoint.name)}(${params === null ? "" : literal(params)})`;
    return `// Internal endpoints are not in the generated client. From another service:\nimport { ${endpoint.service} } from "~encore/clients";\n${call}`;
  }
  const args = [...pathValues.values()].map(({ field, value }) => literal(typed(value, fieldOf(fields, field))));
  if (endpoint.kind === "raw") {
    const rawArgs = [JSON.stringify(request.method), ...args];
    if (request.body !== null) rawArgs.push(`JSON.stringify(${bodyLiteral(request.body)})`);
    return `const response = await ${target}(${rawArgs.join(", ")})`;
  }
  const params = paramsObject(fields, request, false, pathValues);
  if (params !== null) args.push(literal(params));
  const call = `await ${target}(${args.join(", ")})`;
  if (endpoint.kind === "stream") return `const stream = ${call}`;
  return endpoint.response === null ? call : `const response = ${call}`;
}

function bodyLiteral(body: string): string {
  try {
    return literal(JSON.parse(body));
  } catch {
    return JSON.stringify(body);
  }
}

function fieldOf(fields: readonly CatalogField[], wireName: string): CatalogField | undefined {
  return fields.find((f) => f.location === "path" && (f.wireName === wireName || f.name === wireName));
}

interface PathValue {
  readonly field: string;
  readonly value: string | string[];
}

/** Each parameter of the route (":id", "*rest", "!fallback") with its value read from the requested path, in route order. */
export function pathArguments(route: string, path: string): Map<string, PathValue> {
  const routeSegments = route.split("/");
  const pathSegments = path.split("?")[0]!.split("/");
  const values = new Map<string, PathValue>();
  routeSegments.forEach((segment, i) => {
    const kind = segment[0];
    const name = segment.slice(1);
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    };
    if (kind === ":") values.set(argumentName(name), { field: name, value: decode(pathSegments[i] ?? "") });
    else if (kind === "*" || kind === "!") values.set(argumentName(name), { field: name, value: pathSegments.slice(i).filter(Boolean).map(decode) });
  });
  return values;
}

function paramsObject(
  fields: readonly CatalogField[],
  request: ExplorerRequest,
  withPath: boolean,
  pathValues: Map<string, PathValue>,
): Record<string, unknown> | null {
  const wanted = fields.filter((f) => withPath || f.location !== "path");
  if (wanted.length === 0) return null;
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = request.body === null ? {} : JSON.parse(request.body);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // A body that is not JSON has no fields to take; the explorer shows the server's answer to it.
  }
  const headers = Object.entries(request.headers);
  const params: Record<string, unknown> = {};
  for (const field of wanted) {
    let value: unknown;
    // The explorer sends no cookies of its own making: a cookie parameter stays out of the call.
    if (field.location === "cookie") continue;
    if (field.location === "body") value = body[field.wireName];
    else if (field.location === "query") {
      const values = request.query.filter(([k]) => k === field.wireName).map(([, v]) => v);
      value = field.type.endsWith("[]") ? (values.length > 0 ? values.map((v) => typed(v, field)) : undefined) : values.length > 0 ? typed(values[0]!, field) : undefined;
    } else if (field.location === "header") {
      const header = headers.find(([k]) => k.toLowerCase() === field.wireName.toLowerCase());
      value = header === undefined ? undefined : typed(header[1], field);
    } else {
      const path = [...pathValues.values()].find((p) => p.field === field.name || p.field === field.wireName);
      value = path === undefined ? undefined : typed(path.value, field);
    }
    if (value !== undefined) params[field.name] = value;
  }
  return params;
}

/** Text from a path, query or header as the field's type has it, where that type is a plain number or boolean. */
function typed(value: string | string[], field: CatalogField | undefined): unknown {
  if (Array.isArray(value) || field === undefined) return value;
  const type = field.type.replace(/\[\]$/, "").trim();
  if (type === "number" && value.trim() !== "" && !Number.isNaN(Number(value))) return Number(value);
  if (type === "boolean" && (value === "true" || value === "false")) return value === "true";
  return value;
}
