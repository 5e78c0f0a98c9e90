import type { TraceSummary } from "../../../internal/dashboard/api.ts";

/** The trace list's filters as the form holds them: text, "" for none. */
export interface Filters {
  readonly service: string;
  readonly name: string;
  /** "ok", "error" or an HTTP status. */
  readonly status: string;
  readonly minMs: string;
}

export function filtersFrom(params: URLSearchParams): Filters {
  return { service: params.get("service") ?? "", name: params.get("name") ?? "", status: params.get("status") ?? "", minMs: params.get("minMs") ?? "" };
}

/** GET /api/traces with the filters that are set. */
export function tracesPath(filters: Filters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value.trim() !== "") params.set(key, value.trim());
  const query = params.toString();
  return `/api/traces${query ? `?${query}` : ""}`;
}

/** Whether a trace that arrives live belongs in the list: the server's filter, applied here. */
export function matches(trace: TraceSummary, filters: Filters): boolean {
  if (filters.service.trim() && trace.service !== filters.service.trim()) return false;
  if (filters.name.trim() && trace.name !== filters.name.trim()) return false;
  const status = filters.status.trim();
  const failed = trace.error !== null || (trace.status !== null && trace.status >= 500);
  if (status === "ok" && failed) return false;
  if (status === "error" && !failed) return false;
  if (/^\d+$/.test(status) && trace.status !== Number(status)) return false;
  const minMs = Number(filters.minMs);
  if (filters.minMs.trim() && !Number.isNaN(minMs) && trace.durationMs < minMs) return false;
  return true;
}
