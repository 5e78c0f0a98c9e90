import { Decimal } from "../decimal/decimal.ts";
import { isDecimal } from "../decimal/brand.ts";
import type { JSONSchema } from "../meta/types.ts";

type Reviver = (value: unknown) => unknown;

/**
 * Builds, once per schema, a function that turns validated date-time strings into
 * Date objects where the handler's type says Date (and validated decimal strings into
 * Decimal instances where it says Decimal). Returns null when the schema has
 * no dates, so the common request path does no work at all.
 */
export function compileDateReviver(schema: JSONSchema): Reviver | null {
  if (schema["x-encore-type"] === "date") {
    return (v) => (typeof v === "string" ? new Date(v) : v);
  }
  if (schema["x-encore-type"] === "decimal") {
    return (v) => (typeof v === "string" ? new Decimal(v) : v);
  }
  const variants = (schema.anyOf ?? schema.oneOf) as JSONSchema[] | undefined;
  if (variants) {
    // Nullable or optional dates: revive strings, leave the rest.
    const revivers = variants.map(compileDateReviver).filter((r): r is Reviver => r !== null);
    return revivers.length ? (revivers[0] ?? null) : null;
  }
  if (schema.type === "array" && schema.items) {
    const item = compileDateReviver(schema.items as JSONSchema);
    return item && ((v) => (Array.isArray(v) ? v.map(item) : v));
  }
  const fields: [string, Reviver][] = [];
  for (const [key, sub] of Object.entries((schema.properties ?? {}) as Record<string, JSONSchema>)) {
    const r = compileDateReviver(sub);
    if (r) fields.push([key, r]);
  }
  const rest = schema.additionalProperties && typeof schema.additionalProperties === "object"
    ? compileDateReviver(schema.additionalProperties as JSONSchema)
    : null;
  if (fields.length === 0 && !rest) return null;
  const declared = new Set(Object.keys((schema.properties ?? {}) as object));
  return (v) => {
    if (typeof v !== "object" || v === null) return v;
    const obj = v as Record<string, unknown>;
    if (rest) for (const k of Object.keys(obj)) if (!declared.has(k)) obj[k] = rest(obj[k]);
    for (const [k, r] of fields) if (obj[k] !== undefined) obj[k] = r(obj[k]);
    return obj;
  };
}

/**
 * A call's parameters with every Date as its ISO text, copied (the caller's object is left
 * as it was). Another service's endpoint is called with JavaScript values, and Encore
 * passes a Date on as a date-time, as if it had crossed the wire: the validator, which reads
 * JSON's date-time strings, then sees what an HTTP request would have carried. An invalid
 * Date stays a Date, which the validator refuses. A Decimal goes on as its text, as on the wire.
 */
export function datesAsText(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? value : value.toISOString();
  if (isDecimal(value)) return value.value;
  if (Array.isArray(value)) return value.map(datesAsText);
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) copy[key] = datesAsText(field);
  return copy;
}
