// What the click counter, its journal and its writer pass between them.
import { codeOfKey } from "./click-keys";

/**
 * Clicks per click key: a code, then a tab and the click's details when it has any
 * (what the link's analytics record of it, visitors/dimensions.ts; keys are made
 * and read by click-keys.ts). Clicks of one code with the same details share a key, so a batch's size grows with the codes
 * and details seen, not with the clicks.
 */
export type Counts = Map<string, number>;

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
