// Log fields as a trace keeps them: plain JSON whatever the app passed (Dates, Buffers,
// errors, cycles, bigints), and small whatever its size.

export interface JsonSafeLimits {
  /** Longest string kept, in characters; longer ones end in "…". */
  readonly maxString: number;
  /** Most keys of one object, items of one array. */
  readonly maxEntries: number;
  /** Objects and arrays nested deeper than this below the fields themselves become "[object]", "[array]". */
  readonly maxDepth: number;
  /** Characters of text (strings and keys) over the whole value; past it, values become "…". */
  readonly maxTotal: number;
}

export const logFieldLimits: JsonSafeLimits = { maxString: 1024, maxEntries: 50, maxDepth: 5, maxTotal: 8192 };

interface Walk {
  readonly limits: JsonSafeLimits;
  readonly seen: Set<object>;
  /** Characters still allowed. */
  left: number;
}

/** `text` cut to `max` characters, marked as cut. */
export function capText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** A copy of `fields` that JSON.stringify renders as it is, within `limits`. */
export function jsonSafe(fields: Readonly<Record<string, unknown>>, limits: JsonSafeLimits = logFieldLimits): Record<string, unknown> {
  return safeObject(fields, 0, { limits, seen: new Set([fields]), left: limits.maxTotal });
}

function text(value: string, walk: Walk): string {
  const kept = capText(value, Math.max(0, Math.min(walk.limits.maxString, walk.left)));
  walk.left -= kept.length;
  return kept;
}

function safeValue(value: unknown, depth: number, walk: Walk): unknown {
  if (walk.left <= 0) return "…";
  switch (typeof value) {
    case "string":
      return text(value, walk);
    case "number":
      return Number.isFinite(value) ? value : String(value);
    case "boolean":
      return value;
    case "bigint":
      return value.toString();
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
  }
  if (value === null) return null;
  const obj = value as object;
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? null : obj.toISOString();
  if (Buffer.isBuffer(obj)) return `[${obj.length} bytes]`;
  if (typeof (obj as { toJSON?: unknown }).toJSON === "function") {
    try {
      return safeValue((obj as { toJSON(): unknown }).toJSON(), depth + 1, walk);
    } catch {
      return "[unserializable]";
    }
  }
  if (obj instanceof Error) return { name: text(obj.name, walk), message: text(obj.message, walk) };
  if (walk.seen.has(obj)) return "[circular]";
  if (depth >= walk.limits.maxDepth) return Array.isArray(obj) ? "[array]" : "[object]";
  walk.seen.add(obj);
  const copy = Array.isArray(obj) ? safeArray(obj, depth + 1, walk) : safeObject(obj as Record<string, unknown>, depth + 1, walk);
  walk.seen.delete(obj);
  return copy;
}

function safeArray(items: readonly unknown[], depth: number, walk: Walk): unknown[] {
  const { maxEntries } = walk.limits;
  const out = items.slice(0, maxEntries).map((item) => safeValue(item, depth, walk) ?? null);
  if (items.length > maxEntries) out.push(`… ${items.length - maxEntries} more`);
  return out;
}

function safeObject(obj: Readonly<Record<string, unknown>>, depth: number, walk: Walk): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let kept = 0;
  let more = 0;
  for (const key of Object.keys(obj)) {
    if (kept === walk.limits.maxEntries || walk.left <= 0) {
      more++;
      continue;
    }
    const value = obj[key];
    if (value === undefined || typeof value === "function" || typeof value === "symbol") continue;
    out[text(key, walk)] = safeValue(value, depth, walk);
    kept++;
  }
  if (more > 0) out["…"] = `${more} more fields`;
  return out;
}
