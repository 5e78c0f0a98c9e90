// How numbers, sizes and times read on every page.

export function duration(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** Local time of day with milliseconds: traces are read against each other, not against the calendar. */
export function clock(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** Date and time, local, to the second. */
export function dateTime(iso: string | null): string {
  if (iso === null) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toLocaleDateString("en-CA")} ${clock(d.getTime()).slice(0, 8)}`;
}

/** JSON text pretty-printed; the text itself when it is not JSON. */
export function prettyJson(text: string): { text: string; json: boolean } {
  try {
    return { text: JSON.stringify(JSON.parse(text), null, 2), json: true };
  } catch {
    return { text, json: false };
  }
}

/** Text without its blank first and last lines and the indent all its lines share: SQL as written in a template literal. */
export function dedent(text: string): string {
  const lines = text.replace(/^\s*\n/, "").trimEnd().split("\n");
  const indents = lines.filter((l) => l.trim() !== "").map((l) => /^[ \t]*/.exec(l)![0].length);
  const common = Math.min(...indents);
  return lines.map((l) => l.slice(common)).join("\n");
}
