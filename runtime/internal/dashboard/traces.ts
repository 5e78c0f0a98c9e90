import type { FastifyInstance } from "fastify";
import { APIError } from "../errors/api-error.ts";
import type { TraceFilter, TraceStore } from "../tracing/records.ts";
import type { TraceDetail, TraceList } from "./api.ts";

/** Most traces one list answers. */
const maxLimit = 1000;

/** GET /api/traces (newest first, filtered) and GET /api/traces/:id, from the in-memory ring. */
export function registerTraces(app: FastifyInstance, store: TraceStore | null): void {
  app.get("/api/traces", async (req): Promise<TraceList> => {
    const filter = traceFilter(req.query as Record<string, unknown>);
    return { traces: store ? store.list(filter) : [] };
  });

  app.get("/api/traces/:id", async (req): Promise<TraceDetail> => {
    const { id } = req.params as { id: string };
    const trace = store?.get(id);
    if (!trace) throw APIError.notFound(`no trace ${id}: traces are kept in memory, the oldest dropped first, and none outlive a restart`);
    return trace;
  });
}

/** ?service=&name=&status=&minMs=&limit=, each optional. */
export function traceFilter(query: Record<string, unknown>): TraceFilter {
  const text = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined || value === "") return undefined;
    if (typeof value !== "string") throw APIError.invalidArgument(`${name} must be given once`);
    return value;
  };
  const number = (name: string, min: number, max: number, whole: boolean): number | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isFinite(n) || n < min || n > max || (whole && !Number.isInteger(n))) {
      throw APIError.invalidArgument(`${name} must be ${whole ? "a whole number" : "a number"} from ${min} to ${max}, got "${value}"`);
    }
    return n;
  };
  const status = text("status");
  if (status !== undefined && status !== "ok" && status !== "error" && !/^[1-5]\d\d$/.test(status)) {
    throw APIError.invalidArgument(`status must be "ok", "error" or an HTTP status such as 404, got "${status}"`);
  }
  const filter: { -readonly [K in keyof TraceFilter]: TraceFilter[K] } = {};
  const service = text("service");
  const name = text("name");
  const minDurationMs = number("minMs", 0, Number.MAX_SAFE_INTEGER, false);
  const limit = number("limit", 1, maxLimit, true);
  if (service !== undefined) filter.service = service;
  if (name !== undefined) filter.name = name;
  if (status !== undefined) filter.status = status;
  if (minDurationMs !== undefined) filter.minDurationMs = minDurationMs;
  if (limit !== undefined) filter.limit = limit;
  return filter;
}
