import type { JSONSchema, ResponseHeaderField } from "./types.ts";

/** A response's schema without its `Header<...>` fields: what travels in the JSON body. */
export function responseBodySchema(response: JSONSchema, headers: readonly ResponseHeaderField[] | undefined): JSONSchema {
  if (!headers || headers.length === 0) return response;
  const names = new Set(headers.map((field) => field.name));
  const properties = (response["properties"] ?? {}) as Record<string, JSONSchema>;
  const required = response["required"];
  return {
    ...response,
    properties: Object.fromEntries(Object.entries(properties).filter(([name]) => !names.has(name))),
    ...(Array.isArray(required) && { required: (required as string[]).filter((name) => !names.has(name)) }),
  };
}
