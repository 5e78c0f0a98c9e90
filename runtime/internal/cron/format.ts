import type { JobStatus, TickResult } from "./scheduler.ts";
import type { RunRecord } from "./run-store.ts";

/** A value as it arrives over JSON: dates become ISO strings. */
export type Wire<T> = T extends Date
  ? string
  : T extends readonly (infer E)[]
    ? Wire<E>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

/** The JSON form the formatters take: dates as ISO strings. */
export function toWire<T>(value: T): Wire<T> {
  return JSON.parse(JSON.stringify(value)) as Wire<T>;
}

/** "2026-11-22 03:00" (UTC), minutes only when there are no seconds. */
function utc(iso: string): string {
  const text = iso.replace("T", " ").replace(/\.\d+Z$/, "").replace(/Z$/, "");
  return text.endsWith(":00") ? text.slice(0, -3) : text;
}

function seconds(run: Wire<RunRecord>): string {
  if (!run.finishedAt) return "";
  return `${((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000).toFixed(2)} s`;
}

function describeRun(run: Wire<RunRecord> | null): string {
  if (!run) return "never";
  const when = `${utc(run.startedAt)} ${run.trigger === "manual" ? "(manual) " : ""}${run.outcome}`;
  if (run.outcome === "running") return `${when} on ${run.instance}`;
  if (run.outcome === "skipped") return when;
  return `${when} in ${seconds(run)}${run.error ? `: ${run.error}` : ""}`;
}

/** The `--list` table. */
export function formatJobList(jobs: readonly Wire<JobStatus>[]): string {
  const rows = [
    ["JOB", "SCHEDULE", "NEXT TICK (UTC)", "LAST RUN"],
    ...jobs.map((j) => [j.name, j.schedule, utc(j.nextTick), describeRun(j.lastRun)]),
  ];
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  return rows.map((r) => r.map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col]!))).join("  ")).join("\n");
}

/** One line on how a manual run went, then the endpoint's response as JSON when it has one. */
export function formatRunResult(r: Wire<TickResult>): string {
  if (r.claim === "overlap" && r.running) {
    return `${r.job} not run: run ${r.running.id} has been in progress since ${utc(r.running.startedAt)} UTC on ${r.running.instance}`;
  }
  if (!r.run) return `${r.job} not run (${r.claim})`;
  if (r.run.outcome !== "succeeded") return `${r.job} ${r.run.outcome} after ${seconds(r.run)}: ${r.run.error ?? "no error recorded"}`;
  const line = `${r.job} succeeded in ${seconds(r.run)} (run ${r.run.id})`;
  return r.result === undefined ? line : `${line}\n${JSON.stringify(r.result)}`;
}

/** Exit status for a manual run: 0 only when it ran and succeeded. */
export function exitCodeOf(r: Wire<TickResult>): number {
  return r.run?.outcome === "succeeded" ? 0 : 1;
}
