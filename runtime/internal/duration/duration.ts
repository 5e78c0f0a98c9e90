// Encore's DurationString ("10s", "500ms", "1h30m", "1h 30m") in milliseconds. Neutral ground:
// pub/sub reads its deadlines with it and the parser its cron intervals.
const unitMs: Record<string, number> = { ns: 1e-6, us: 1e-3, "µs": 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const component = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/y;

export function parseDuration(text: string, what: string): number {
  let ms = 0;
  let pos = 0;
  const s = text.trim();
  if (s === "") throw new Error(`${what}: empty duration`);
  while (pos < s.length) {
    if (s[pos] === " ") {
      pos++;
      continue;
    }
    component.lastIndex = pos;
    const m = component.exec(s);
    if (!m) throw new Error(`${what}: "${text}" is not a duration such as "10s", "500ms" or "1h30m"`);
    ms += Number(m[1]) * unitMs[m[2]!]!;
    pos = component.lastIndex;
  }
  return ms;
}
