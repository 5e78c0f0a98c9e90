import type { FastifyReply } from "fastify";
import { validateHeaderValue } from "node:http";
import { isDecimal } from "../../decimal/brand.ts";
import type { ResponseHeaderField } from "../../meta/types.ts";

/** A response's `Cookie<...>` fields, written as one Set-Cookie header each. */
export interface ResponseCookieStep {
  /** Throws (an internal error) on a field that is not a cookie Encore could write. */
  apply(reply: FastifyReply, result: unknown): void;
}

export function compileResponseCookies(fields: readonly ResponseHeaderField[] | undefined): ResponseCookieStep | null {
  if (!fields || fields.length === 0) return null;
  return {
    apply(reply, result) {
      if (result === null || typeof result !== "object") return;
      for (const field of fields) {
        const cookie = (result as Record<string, unknown>)[field.name];
        // Encore skips a field that is absent or not an object.
        if (cookie === null || typeof cookie !== "object") continue;
        const text = setCookieText(field.wireName, cookie as Record<string, unknown>);
        try {
          validateHeaderValue("set-cookie", text);
        } catch (err) {
          throw new Error(`the response cookie "${field.name}" cannot be sent as a Set-Cookie header`, { cause: err });
        }
        void reply.header("set-cookie", text);
      }
    },
  };
}

/**
 * The Set-Cookie text Encore writes (runtimes/js/src/cookies.rs reads the options, the
 * Rust `cookie` crate writes them): the value as it is, then HttpOnly, SameSite,
 * Partitioned, Secure (also for a partitioned cookie, and for SameSite=None when `secure` is
 * unset), Path, Domain, Max-Age, Expires, each only when set; an option of the wrong type is
 * refused with Encore's words.
 */
export function setCookieText(name: string, cookie: Record<string, unknown>): string {
  if (!("value" in cookie) || cookie["value"] === undefined) throw new Error("cookie requires a value");
  const path = optionOf(cookie, "path", "string", "a string");
  const domain = optionOf(cookie, "domain", "string", "a string");
  const secure = optionOf(cookie, "secure", "boolean", "a boolean");
  const httpOnly = optionOf(cookie, "httpOnly", "boolean", "a boolean");
  const partitioned = optionOf(cookie, "partitioned", "boolean", "a boolean");
  const sameSite = optionOf(cookie, "sameSite", "string", "a string");
  if (sameSite !== undefined && !["Lax", "Strict", "None"].includes(sameSite)) {
    throw new Error("cookie field sameSite must be one of Lax, Strict or None");
  }
  const maxAge = cookie["maxAge"];
  if (maxAge !== undefined && !Number.isInteger(maxAge)) throw new Error("cookie field maxAge must be an integer");
  const expires = cookie["expires"];
  if (expires !== undefined && !(expires instanceof Date && !Number.isNaN(expires.getTime()))) {
    throw new Error("cookie field expires must be a datetime");
  }

  let text = `${name}=${valueText(cookie["value"])}`;
  if (httpOnly === true) text += "; HttpOnly";
  if (sameSite !== undefined) text += `; SameSite=${sameSite}`;
  if (partitioned === true) text += "; Partitioned";
  // Browsers drop a partitioned or SameSite=None cookie that is not Secure.
  if (secure === true || partitioned === true || (secure === undefined && sameSite === "None")) text += "; Secure";
  if (path !== undefined) text += `; Path=${path}`;
  if (domain !== undefined) text += `; Domain=${domain}`;
  if (maxAge !== undefined) text += `; Max-Age=${Math.max(0, maxAge as number)}`;
  if (expires instanceof Date) text += `; Expires=${expires.toUTCString()}`;
  return text;
}

function optionOf<K extends "string" | "boolean">(
  cookie: Record<string, unknown>,
  key: string,
  type: K,
  what: string,
): (K extends "string" ? string : boolean) | undefined {
  const value = cookie[key];
  if (value === undefined) return undefined;
  if (typeof value !== type) throw new Error(`cookie field ${key} must be ${what}`);
  return value as K extends "string" ? string : boolean;
}

/** A cookie's value as Encore writes a value of its type: text as it is, a date in RFC 3339. */
function valueText(value: unknown): string {
  if (value instanceof Date) return rfc3339(value);
  if (isDecimal(value)) return value.value;
  return String(value);
}

/** chrono's `to_rfc3339`: "+00:00" for UTC, and milliseconds only when there are some. */
function rfc3339(date: Date): string {
  const iso = date.toISOString();
  const withoutMillis = iso.endsWith(".000Z") ? `${iso.slice(0, -5)}Z` : iso;
  return `${withoutMillis.slice(0, -1)}+00:00`;
}
