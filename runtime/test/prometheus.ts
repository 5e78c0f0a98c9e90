// A strict reader of the Prometheus text exposition format (version 0.0.4), for tests. Not
// a package: the one on npm (parse-prometheus-text-format, last released in 2019) merges
// every series of a labelled histogram into one, dropping their labels, counts and sums,
// and takes any text as a value. This one throws on anything the format does not allow.

/** A parsed scrape: families by name. */
export type Scrape = ReadonlyMap<string, Family>;

export interface Family {
  readonly type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  readonly help: string;
  readonly samples: readonly Sample[];
}

export interface Sample {
  /** The sample's own name: the family's, or for a histogram its _bucket, _sum or _count. */
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const metricName = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const helpLine = new RegExp(`^# HELP (${metricName}) (.*)$`);
const typeLine = new RegExp(`^# TYPE (${metricName}) (counter|gauge|histogram|summary|untyped)$`);
const sampleHead = new RegExp(`^(${metricName})`);
const labelPair = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"/;
const floatText = /^(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?Inf|NaN)$/i;

export function parseScrape(text: string): Scrape {
  if (text !== "" && !text.endsWith("\n")) throw new Error("an exposition ends with a line feed");
  const families = new Map<string, { type: Family["type"]; help: string; samples: Sample[] }>();
  const closed = new Set<string>();
  let current: string | null = null;
  const family = (name: string) => {
    let found = families.get(name);
    if (!found) {
      found = { type: "untyped", help: "", samples: [] };
      families.set(name, found);
    }
    return found;
  };
  const enter = (name: string, lineNo: number) => {
    if (current === name) return;
    if (closed.has(name)) throw new Error(`line ${lineNo}: family ${name} appears twice, not in one group`);
    if (current !== null) closed.add(current);
    current = name;
  };
  text.split("\n").forEach((line, index) => {
    const lineNo = index + 1;
    if (line === "") return;
    const help = helpLine.exec(line);
    const type = typeLine.exec(line);
    if (help) {
      enter(help[1]!, lineNo);
      family(help[1]!).help = help[2]!.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
    } else if (type) {
      enter(type[1]!, lineNo);
      const f = family(type[1]!);
      if (f.samples.length > 0) throw new Error(`line ${lineNo}: TYPE of ${type[1]} after its samples`);
      f.type = type[2] as Family["type"];
    } else if (line.startsWith("#")) {
      return; // a comment
    } else {
      const sample = parseSample(line, lineNo);
      const owner = ownerOf(sample.name, current === null ? undefined : families.get(current), current);
      enter(owner, lineNo);
      family(owner).samples.push(sample);
    }
  });
  for (const [name, f] of families) if (f.type === "histogram") checkHistogram(name, f.samples);
  return families;
}

function parseSample(line: string, lineNo: number): Sample {
  const head = sampleHead.exec(line);
  if (!head) throw new Error(`line ${lineNo}: not a sample: ${line}`);
  let rest = line.slice(head[0].length);
  const labels: Record<string, string> = {};
  if (rest.startsWith("{")) {
    rest = rest.slice(1);
    while (!rest.startsWith("}")) {
      const pair = labelPair.exec(rest);
      if (!pair) throw new Error(`line ${lineNo}: malformed labels: ${line}`);
      if (pair[1]! in labels) throw new Error(`line ${lineNo}: label ${pair[1]} twice`);
      labels[pair[1]!] = pair[2]!.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
      rest = rest.slice(pair[0].length);
      if (rest.startsWith(",")) rest = rest.slice(1);
      else if (!rest.startsWith("}")) throw new Error(`line ${lineNo}: malformed labels: ${line}`);
    }
    rest = rest.slice(1);
  }
  const fields = rest.trim().split(/\s+/);
  if (!rest.startsWith(" ") || fields.length < 1 || fields.length > 2) throw new Error(`line ${lineNo}: malformed sample: ${line}`);
  if (!floatText.test(fields[0]!)) throw new Error(`line ${lineNo}: not a number: ${fields[0]}`);
  if (fields[1] !== undefined && !/^-?\d+$/.test(fields[1])) throw new Error(`line ${lineNo}: not a timestamp: ${fields[1]}`);
  return { name: head[1]!, labels, value: Number(fields[0]) };
}

/** The family a sample belongs to: the group it is in when its name fits that group's type, else its own name. */
function ownerOf(name: string, group: { type: Family["type"] } | undefined, groupName: string | null): string {
  if (group && groupName !== null) {
    const suffixes = group.type === "histogram" ? ["_bucket", "_sum", "_count"] : group.type === "summary" ? ["", "_sum", "_count"] : [""];
    if (suffixes.some((s) => name === groupName + s)) return groupName;
  }
  return name;
}

/** Buckets cumulative, with +Inf, which equals _count, per series. */
function checkHistogram(name: string, samples: readonly Sample[]): void {
  const series = new Map<string, { buckets: [number, number][]; count?: number }>();
  for (const s of samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (s.name === `${name}_bucket`) {
      if (le === undefined) throw new Error(`${name}: a bucket without le`);
      entry.buckets.push([le === "+Inf" ? Infinity : Number(le), s.value]);
    } else if (s.name === `${name}_count`) entry.count = s.value;
  }
  for (const [key, { buckets, count }] of series) {
    const sorted = [...buckets].sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]![1] < sorted[i - 1]![1]) throw new Error(`${name} ${key}: buckets are not cumulative`);
    }
    const inf = sorted.at(-1);
    if (!inf || inf[0] !== Infinity || inf[1] !== count) throw new Error(`${name} ${key}: the +Inf bucket must equal _count`);
  }
}

/**
 * The value of the series of family `name` with exactly these labels (a histogram's: its
 * count of observations); 0 when the family has no such series yet.
 */
export function valueOf(scrape: Scrape, name: string, labels: Readonly<Record<string, string>>): number {
  const family = scrape.get(name);
  if (!family) throw new Error(`no family ${name} in the scrape`);
  const sampleName = family.type === "histogram" ? `${name}_count` : name;
  const want = Object.entries(labels);
  const found = family.samples.find(
    (s) => s.name === sampleName && Object.keys(s.labels).length === want.length && want.every(([k, v]) => s.labels[k] === v),
  );
  return found?.value ?? 0;
}

/** Whether family `name` has a series with these labels (others may be present). */
export function hasSeries(scrape: Scrape, name: string, labels: Readonly<Record<string, string>>): boolean {
  return scrape.get(name)?.samples.some((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v)) ?? false;
}
