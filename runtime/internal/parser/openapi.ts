import { responseBodySchema } from "../meta/response-body.ts";
import type { AppMeta, EndpointMeta, JSONSchema } from "../meta/types.ts";

const OPENAPI_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
const ERROR_REF = { $ref: "#/components/schemas/APIError" };

/** An OpenAPI 3.1 document of the exposed typed endpoints; internal, raw and static ones are left out. */
export function toOpenAPI(meta: AppMeta, title: string): object {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const service of meta.services) {
    for (const endpoint of service.endpoints) {
      if (endpoint.kind !== "typed" || !endpoint.expose) continue;
      const route = toOpenAPIPath(endpoint.path);
      const operations = (paths[route] ??= {});
      const methods = operationMethods(endpoint);
      for (const method of methods) {
        const operationId = methods.length > 1 ? `${endpoint.service}.${endpoint.name}.${method}` : `${endpoint.service}.${endpoint.name}`;
        operations[method] = operation(endpoint, operationId);
      }
    }
  }
  return {
    openapi: "3.1.0",
    info: { title, version: "1" },
    paths,
    components: {
      schemas: {
        APIError: {
          type: "object",
          properties: {
            code: { type: "string" },
            message: { type: "string" },
            details: { type: ["object", "null"] },
          },
          required: ["code", "message", "details"],
        },
      },
    },
  };
}

/** "/url/:id" → "/url/{id}", "/files/*rest" → "/files/{rest}", "/!page" → "/{page}". */
export function toOpenAPIPath(path: string): string {
  return path.replace(/\/[:*!]([A-Za-z0-9_]+)/g, "/{$1}");
}

// OpenAPI has no "any method"; such endpoints read their fields from the body, so POST describes them.
function operationMethods(endpoint: EndpointMeta): string[] {
  if (endpoint.methods.includes("*")) return ["post"];
  return endpoint.methods.map((method) => method.toLowerCase()).filter((method) => OPENAPI_METHODS.has(method));
}

function operation(endpoint: EndpointMeta, operationId: string): Record<string, unknown> {
  const request = endpoint.request;
  const parameters = request
    ? [
        ...parametersOf(request.path, "path"),
        ...parametersOf(request.query, "query"),
        ...parametersOf(request.headers, "header"),
      ]
    : [];
  const result: Record<string, unknown> = {
    operationId,
    tags: [endpoint.service, ...endpoint.tags],
  };
  if (parameters.length > 0) result["parameters"] = parameters;
  if (request?.body) {
    const required = Array.isArray(request.body["required"]) && request.body["required"].length > 0;
    result["requestBody"] = { required, content: { "application/json": { schema: withoutEncoreKeys(request.body) } } };
  }
  const success: Record<string, unknown> = endpoint.response
    ? { description: "Success", content: { "application/json": { schema: withoutEncoreKeys(responseBodySchema(endpoint.response, endpoint.responseHeaders)) } } }
    : { description: "Success" };
  if (endpoint.response && endpoint.responseHeaders) {
    // Header<...> fields travel as response headers, not in the body.
    const properties = (endpoint.response["properties"] ?? {}) as Record<string, JSONSchema>;
    success["headers"] = Object.fromEntries(
      endpoint.responseHeaders.map((field) => {
        const { description, ...schema } = withoutEncoreKeys(properties[field.name] ?? { type: "string" });
        return [field.wireName, { required: !field.optional, schema, ...(typeof description === "string" && { description }) }];
      }),
    );
  }
  result["responses"] = {
    "200": success,
    default: { description: "Error", content: { "application/json": { schema: ERROR_REF } } },
  };
  return result;
}

function parametersOf(schema: JSONSchema | null, location: "path" | "query" | "header"): object[] {
  if (!schema) return [];
  const properties = (schema["properties"] ?? {}) as Record<string, JSONSchema>;
  const required = new Set((schema["required"] ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = withoutEncoreKeys(property);
    const parameter: Record<string, unknown> = { name, in: location, required: location === "path" || required.has(name) };
    if (typeof description === "string") parameter["description"] = description;
    parameter["schema"] = rest;
    return parameter;
  });
}

/** A copy without "x-encore-type", "x-encore-ref" and any other "x-encore-*" key: those are for the runtime and its generators, not for API consumers. */
export function withoutEncoreKeys(schema: JSONSchema): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith("x-encore-")) continue;
    if (key === "properties" && value && typeof value === "object") {
      result[key] = Object.fromEntries(
        Object.entries(value as Record<string, JSONSchema>).map(([name, child]) => [name, withoutEncoreKeys(child)]),
      );
    } else {
      result[key] = strip(value);
    }
  }
  return result;
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value && typeof value === "object") return withoutEncoreKeys(value as JSONSchema);
  return value;
}
