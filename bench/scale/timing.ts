// One request at a time, as a person paging through the app would send them: each
// figure is its requests' p50 and p99 (of at most 100, the slowest but one or so).
import type { Phase } from "../http-client.ts";

export interface Timed {
  readonly name: string;
  readonly p50: number;
  readonly p99: number;
  readonly count: number;
  /** Answers other than 200, by status and the first one's body: a figure that fails is reported, not thrown. */
  readonly failures?: { readonly count: number; readonly first: string };
}

/**
 * Sends `count` GETs of the paths `pathOf(i)` gives, one at a time, after one untimed
 * (`pathOf(-1)`: the first of a kind also pays for compiling its code). Answers other than 200
 * are counted in `failures`.
 */
export async function timeGets(client: Phase, baseUrl: string, name: string, count: number, pathOf: (i: number) => string, headers: Record<string, string> = {}): Promise<Timed> {
  const times: number[] = [];
  let failures: Timed["failures"];
  for (let i = -1; i < count; i++) {
    const path = pathOf(i);
    const started = performance.now();
    const res = await client.send("GET", `${baseUrl}${path}`, undefined, headers);
    if (i >= 0) times.push(performance.now() - started);
    if (res.status !== 200) failures = { count: (failures?.count ?? 0) + 1, first: failures?.first ?? `${res.status} ${res.body.slice(0, 200)}` };
  }
  return { name, count, p50: percentile(times, 50), p99: percentile(times, 99), failures };
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
