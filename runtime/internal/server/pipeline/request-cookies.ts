import { parse as parseCookieHeader } from "cookie";
import { APIError } from "../../errors/api-error.ts";
import type { JSONSchema } from "../../meta/types.ts";
import { compileValidator, describeValidationErrors } from "../../validation/ajv.ts";
import { compileDateReviver } from "../../validation/dates.ts";

type Source = Record<string, unknown>;

/**
 * Compiled at boot for a request's `Cookie<...>` fields: reads the Cookie header(s), checks
 * each declared cookie's value against its type and answers the handler's `{ name, value }`
 * objects, keyed by field name, as Encore's runtime does (runtimes/core/src/api/jsonschema/
 * parse.rs), with its words for a missing cookie or a value of the wrong type.
 */
export function compileCookieDecoder(schema: JSONSchema, fields: readonly (readonly [string, string])[]): (headers: Source) => Source {
  const validate = compileValidator(schema, "cookie");
  const revive = compileDateReviver(schema);
  return (headers) => {
    const jar = cookiesOf(headers["cookie"]);
    if (!validate(jar)) throw APIError.invalidArgument(describeValidationErrors(validate.errors, "cookie", jar));
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
