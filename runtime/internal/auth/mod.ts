// The auth rules shared by requests over HTTP and calls between services.
import { APIError } from "../errors/api-error.ts";
import type { AuthHandlerMeta } from "../meta/types.ts";
import { compileValueValidator } from "../validation/ajv.ts";

/**
 * Compiles, once, the check of a value against the auth handler's AuthData type, so the
 * auth data a request carries always has the shape getAuthData() promises. The check
 * returns what is wrong, or null when the value fits.
 */
export function compileAuthDataCheck(meta: AuthHandlerMeta): (data: unknown) => string | null {
  const validate = compileValueValidator(meta.authData);
  return (data) => {
    if (validate(data)) return null;
    const first = validate.errors?.[0];
    if (!first) return "it does not match AuthData";
    if (first.keyword === "required") return `field "${fieldPath(first.instancePath, (first.params as { missingProperty: string }).missingProperty)}" is required`;
    const where = first.instancePath ? `field "${fieldPath(first.instancePath)}"` : "the auth data";
    return `${where} ${first.message ?? "does not match AuthData"}`;
  };
}

function fieldPath(pointer: string, last?: string): string {
  const segments = pointer.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  return [...segments, ...(last === undefined ? [] : [last])].join(".");
}

/** What an `auth: true` endpoint answers a caller without auth data, over HTTP or in-process. */
export function noCredentials(): APIError {
  return APIError.unauthenticated("endpoint requires auth but none provided");
}
