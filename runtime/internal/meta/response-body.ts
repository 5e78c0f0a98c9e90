import type { JSONSchema } from "./types.ts";

/**
 * A response's schema without the fields that do not travel in the JSON body (its
 * `Header<...>`, `Cookie<...>` or `HttpStatus` fields): what the body holds.
 */
export function responseBodySchema(response: JSONSchema, headers: readonly { readonly name: string }[] | undefined): JSONSchema {
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
