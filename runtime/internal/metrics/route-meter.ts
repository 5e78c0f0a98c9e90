// What the request path records, in plain numbers: prom-client's labelled counters and
// histograms hash their label values into a key on every call, an allocation per request
// on the hot path. Here each route's series are resolved when the route is compiled (the
// codes a route answers are few and each is added once), and prom-client reads the numbers
// when /metrics is scraped (http-families.ts).

/** The service label of the runtime's own routes (/healthz, /objects/*, ...) and of requests no route matched. */
export const runtimeService = "__runtime";
/** The endpoint label of requests no route matched: one series, whatever the paths tried. */
export const unmatchedEndpoint = "unmatched";

/** Latency buckets in seconds: from a cached redirect (well under a millisecond) to a slow upstream. */
export const latencyBuckets: readonly number[] = Object.freeze([0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);

/** The status classes latency is kept by: "1xx" to "5xx". */
export const statusClasses: readonly string[] = Object.freeze(["1xx", "2xx", "3xx", "4xx", "5xx"]);

/** Responses of one route with one Encore code (e_requests_total). */
export interface CodeCount {
  readonly code: string;
  readonly statusClass: string;
  count: number;
}

/** Latency of one route's responses of one status class (e_request_duration_seconds). */
export interface Latency {
  readonly statusClass: string;
  /** Per bucket, not cumulative; observations above the last bound are only in `count`. */
  readonly buckets: Float64Array;
  count: number;
  sum: number;
}

/** One route's series: labelled by the route table's service and endpoint, never by a raw path. */
export class RouteMeter {
  readonly codes = new Map<string, CodeCount>();
  readonly latency: (Latency | undefined)[] = [undefined, undefined, undefined, undefined, undefined];

  constructor(
    readonly service: string,
    readonly endpoint: string,
    /** Typed endpoints answer "ok" for any success status, as in Encore; raw ones get the status's code. */
    private readonly typed: boolean,
  ) {}

  /** One response: its status, its Encore code when the runtime answered an error (else derived), its duration. */
  record(status: number, errorCode: string | null, seconds: number): void {
    const classIndex = status >= 100 && status < 600 ? ((status / 100) | 0) - 1 : 4;
    const code = errorCode ?? (this.typed && status < 400 ? "ok" : codeOfStatus(status));
    let counted = this.codes.get(code);
    if (counted === undefined) {
      counted = { code, statusClass: statusClasses[classIndex]!, count: 0 };
      this.codes.set(code, counted);
    }
    counted.count++;
    let latency = this.latency[classIndex];
    if (latency === undefined) {
      latency = { statusClass: statusClasses[classIndex]!, buckets: new Float64Array(latencyBuckets.length), count: 0, sum: 0 };
      this.latency[classIndex] = latency;
    }
    latency.count++;
    latency.sum += seconds;
    for (let i = 0; i < latencyBuckets.length; i++) {
      if (seconds <= latencyBuckets[i]!) {
        latency.buckets[i]!++;
        break;
      }
    }
  }
}

/** Encore's code for a status a raw response answered (its runtime's code_for_http_status). */
export function codeOfStatus(status: number): string {
  return codesByStatus[status] ?? (status >= 400 ? "unknown" : `http_${status}`);
}

// Indexed by status, so the common statuses cost a lookup and no string building.
const codesByStatus: string[] = [];
codesByStatus[200] = "ok";
for (const status of [201, 202, 204, 206, 301, 302, 303, 304, 307, 308]) codesByStatus[status] = `http_${status}`;
Object.assign(codesByStatus, {
  400: "invalid_argument",
  401: "unauthenticated",
  403: "permission_denied",
  404: "not_found",
  409: "already_exists",
  429: "resource_exhausted",
  499: "canceled",
  500: "internal",
  501: "unimplemented",
  503: "unavailable",
  504: "deadline_exceeded",
});
