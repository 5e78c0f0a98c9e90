// One request at a time, as a person paging through the app would send them: each
// figure is its requests' p50 and p99 (of at most 100, the slowest but one or so).
import type { Phase } from "../http-client.ts";

export interface Timed {
  readonly name: string;
  readonly p50: number;
  readonly p99: number;
  readonly count: number;
}

/**
 * Sends `count` GETs of the paths `pathOf(i)` gives, one at a time, after one untimed
 * (`pathOf(-1)`: the first of a kind also pays for compiling its code); every answer must be 200.
 */
export async function timeGets(client: Phase, baseUrl: string, name: string, count: number, pathOf: (i: number) => string, headers: Record<string, string> = {}): Promise<Timed> {
  const times: number[] = [];
  for (let i = -1; i < count; i++) {
    const path = pathOf(i);
    const started = performance.now();
    const res = await client.send("GET", `${baseUrl}${path}`, undefined, headers);
    if (i >= 0) times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.body.slice(0, 300)}`);
  }
  return { name, count, p50: percentile(times, 50), p99: percentile(times, 99) };
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
