// What the click counter, its journal and its writer pass between them.

/**
 * Clicks per click key: a code, then a tab and the click's details when it has any
 * (what the link's analytics record of it, url/click-analytics/dimensions.ts). Clicks of
 * one code with the same details share a key, so a batch's size grows with the codes
 * and details seen, not with the clicks.
 */
export type Counts = Map<string, number>;

/** The key clicks of `code` with `details` are counted under. */
export function clickKey(code: string, details: string | undefined): string {
  return details === undefined ? code : `${code}\t${details}`;
}

/**
 * The key of `code` with `details`, as the same string each time while it is in use:
 * a Map hashes a string once, so counting a click under a key it already holds costs
 * no pass over the key's 60-odd characters. Keys are kept per details and code, up to
 * `internedKeys`, then forgotten all at once (they are only a saving).
 */
export function internedClickKey(code: string, details: string): string {
  let byCode = interned.get(details);
  if (byCode === undefined) interned.set(details, (byCode = new Map()));
  let key = byCode.get(code);
  if (key === undefined) {
    if (internedCount >= internedKeys) {
      interned.clear();
      internedCount = 0;
      interned.set(details, byCode);
      byCode.clear();
    }
    byCode.set(code, (key = clickKey(code, details)));
    internedCount++;
  }
  return key;
}

const internedKeys = 100_000;
const interned = new Map<string, Map<string, string>>();
let internedCount = 0;

/** The code a click key counts clicks of. */
export function codeOfKey(key: string): string {
  const tab = key.indexOf("\t");
  return tab < 0 ? key : key.slice(0, tab);
}

/** The details part of a click key; undefined for a bare code. */
export function detailsOfKey(key: string): string | undefined {
  const tab = key.indexOf("\t");
  return tab < 0 ? undefined : key.slice(tab + 1);
}

/** Clicks per code, summed over their details. */
export function clicksPerCode(counts: ReadonlyMap<string, number>): Counts {
  const perCode: Counts = new Map();
  for (const [key, n] of counts) {
    const code = codeOfKey(key);
    perCode.set(code, (perCode.get(code) ?? 0) + n);
  }
  return perCode;
}

/**
 * A batch of clicks whose write went to the database and whose commit went
 * unanswered: the database holds it exactly when its writer's `seq` there is at
 * least `seq`.
 */
export interface Doubtful {
  readonly seq: number;
  readonly counts: ReadonlyMap<string, number>;
}

/** What a write stored. */
export interface Written {
  /** The clicks added now, per click key (a doubtful batch the database already held is left out). */
  readonly applied: ReadonlyMap<string, number>;
  /** The codes of `applied` whose row exists; the others' links were deleted. */
  readonly found: ReadonlySet<string>;
}

/**
 * Stores `counts`, plus each batch of `doubtful` the database does not hold yet, in
 * one transaction that records `seq` as the writer's last batch. Rejects with
 * CommitUnknown when the commit went unanswered (the batch may or may not be
 * stored); with any other error, nothing was stored.
 */
export type ClickWriter = (counts: ReadonlyMap<string, number>, seq: number, doubtful: readonly Doubtful[]) => Promise<Written>;

/** The commit of a write of clicks was sent and no answer came back. */
export class CommitUnknown extends Error {
  constructor(cause: unknown) {
    super("the commit of a write of clicks went unanswered: it may or may not be stored", { cause });
    this.name = "CommitUnknown";
  }
}

/** Adds `from`'s counts into `into`; returns how many clicks were added. */
export function addCounts(into: Counts, from: ReadonlyMap<string, number>): number {
  let added = 0;
  for (const [code, n] of from) {
    into.set(code, (into.get(code) ?? 0) + n);
    added += n;
  }
  return added;
}

/** The sum of `parts`, as a new map. */
export function sumCounts(...parts: readonly ReadonlyMap<string, number>[]): Counts {
  const sum: Counts = new Map();
  for (const part of parts) addCounts(sum, part);
  return sum;
}

/** Total clicks in `counts`. */
export function totalOf(counts: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const n of counts.values()) total += n;
  return total;
}
