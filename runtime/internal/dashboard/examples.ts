import type { EndpointMeta, JSONSchema } from "../meta/types.ts";
import type { ExplorerRequest } from "./api.ts";

/** Deeper than any request type worth filling by hand; also ends a self-referencing one. */
const maxDepth = 8;

/**
 * The request the API explorer starts from: path parameters filled in, and every query,
 * header and body field (optional ones too) with a sample of its type: "" for strings,
 * 0, false, [], the first member of an enum or union of literals, the current time for
 * dates, nested objects filled the same way.
 */
export function exampleRequest(meta: EndpointMeta): ExplorerRequest {
  const request = meta.request;
  const bodyFields = request?.fields.filter((f) => f.location === "body") ?? [];
  const method = meta.methods[0] === "*" || meta.methods.length === 0 ? (bodyFields.length > 0 ? "POST" : "GET") : meta.methods[0]!;
  const pathSchemas = properties(request?.path);
  const path = meta.path.replace(/([:*!])([A-Za-z0-9_]+)/g, (_match, kind: string, name: string) => {
    if (kind === "!") return "";
    const schema = pathSchemas[name];
    return encodeURIComponent(schema ? pathSample(schema, name) : name);
  });
  const query: [string, string][] = [];
  const headers: Record<string, string> = {};
  for (const field of request?.fields ?? []) {
    if (field.location === "query") {
      const schema = properties(request?.query)[field.wireName] ?? {};
      const value = sample(schema, 0);
      for (const item of Array.isArray(value) ? [sample(itemsOf(schema), 1)] : [value]) query.push([field.wireName, asText(item)]);
    } else if (field.location === "header") {
      headers[field.wireName] = asText(sample(properties(request?.headers)[field.wireName] ?? {}, 0));
    }
  }
  let body: string | null = null;
  if (bodyFields.length > 0) {
    const schemas = properties(request?.body);
    const value = Object.fromEntries(bodyFields.map((f) => [f.wireName, sample(schemas[f.wireName] ?? {}, 1)]));
    body = JSON.stringify(value, null, 2);
  }
  return { method, path, query, headers, body };
}

/** A sample value of `schema`'s type. */
export function sample(schema: JSONSchema, depth: number): unknown {
  if (depth > maxDepth) return null;
  if (Array.isArray(schema["enum"]) && schema["enum"].length > 0) return schema["enum"][0];
  if ("const" in schema) return schema["const"];
  if (schema["format"] === "date-time" || schema["x-encore-type"] === "date") return sampleDate();
  // An empty string is no decimal: the example would be refused.
  if (schema["x-encore-type"] === "decimal") return "0";
  const branches = (schema["anyOf"] ?? schema["oneOf"]) as JSONSchema[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) {
    return sample(branches.find((b) => b["type"] !== "null") ?? branches[0]!, depth);
  }
  const declared = schema["type"];
  const type = Array.isArray(declared) ? (declared.find((t) => t !== "null") ?? declared[0]) : declared;
  switch (type) {
    case "string":
      return "";
    case "number":
    case "integer":
      return 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "null":
      return null;
    case "object": {
      const props = properties(schema);
      return Object.fromEntries(Object.entries(props).map(([name, prop]) => [name, sample(prop, depth + 1)]));
    }
    default:
      return null;
  }
}

/** A path segment must not be empty: a string parameter shows its own name. */
function pathSample(schema: JSONSchema, name: string): string {
  const value = sample(schema, 0);
  return value === "" || value === null ? name : asText(value);
}

function sampleDate(): string {
  return new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
}

function asText(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

function properties(schema: JSONSchema | null | undefined): Record<string, JSONSchema> {
  return (schema?.["properties"] as Record<string, JSONSchema> | undefined) ?? {};
}

function itemsOf(schema: JSONSchema): JSONSchema {
  return (schema["items"] as JSONSchema | undefined) ?? {};
}
