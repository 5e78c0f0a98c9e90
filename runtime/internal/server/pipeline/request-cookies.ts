import type { ValidateFunction } from "ajv";
import { parse as parseCookieHeader } from "cookie";
import { APIError } from "../../errors/api-error.ts";
import type { JSONSchema } from "../../meta/types.ts";
import { compileValidator } from "../../validation/ajv.ts";
import { compileDateReviver } from "../../validation/dates.ts";

type Source = Record<string, unknown>;

/**
 * Compiled at boot for a request's `Cookie<...>` fields: reads the Cookie header(s), checks
 * each declared cookie's value against its type and answers the handler's `{ name, value }`
 * objects, keyed by field name, as Encore's runtime does (runtimes/core/src/api/jsonschema/
 * parse.rs): its words for a missing cookie and for a value of the wrong type.
 */
export function compileCookieDecoder(schema: JSONSchema, fields: readonly (readonly [string, string])[]): (headers: Source) => Source {
  const validate = compileValidator(schema, "cookie");
  const revive = compileDateReviver(schema);
  const properties = (schema["properties"] ?? {}) as Record<string, JSONSchema>;
  return (headers) => {
    const jar = cookiesOf(headers["cookie"]);
    if (!validate(jar)) throw invalidCookie(validate, jar, properties);
    const values = (revive ? revive(jar) : jar) as Source;
    const params: Source = {};
    for (const [wire, name] of fields) {
      if (values[wire] !== undefined) params[name] = { name: wire, value: values[wire] };
    }
    return params;
  };
}

/** The request's cookies by name; values as sent (Encore does not percent-decode them). */
function cookiesOf(header: unknown): Source {
  const jar: Source = {};
  for (const line of Array.isArray(header) ? header : [header]) {
    if (typeof line === "string") Object.assign(jar, parseCookieHeader(line, { decode: (value) => value }));
  }
  return jar;
}

function invalidCookie(validate: ValidateFunction, jar: Source, properties: Record<string, JSONSchema>): APIError {
  const error = validate.errors?.[0];
  if (error?.keyword === "required") {
    return APIError.invalidArgument(`missing required cookie: ${(error.params as { missingProperty: string }).missingProperty}`);
  }
  const name = decodeURIComponent((error?.instancePath ?? "").split("/")[1] ?? "").replace(/~1/g, "/").replace(/~0/g, "~");
  const text = String(jar[name] ?? "");
  return APIError.invalidArgument(invalidValueMessage(properties[name] ?? {}, text));
}

/** Encore's message for a cookie value that does not parse as its declared type. */
function invalidValueMessage(schema: JSONSchema, text: string): string {
  if (schema["x-encore-type"] === "decimal") return `invalid decimal value: ${text}`;
  if (schema["x-encore-type"] === "date") return "invalid datetime";
  if (Array.isArray(schema["enum"]) || "const" in schema) return "invalid cookie value";
  if (schema["type"] === "number" || schema["type"] === "integer") return `invalid number value: ${text}`;
  if (schema["type"] === "boolean") return `invalid boolean value: ${text}`;
  return "invalid cookie value";
}
