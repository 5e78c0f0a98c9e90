// The development dashboard's HTTP API (served under /api/ on its own loopback port):
// the shapes its server answers and its front end reads. Errors are Encore's
// {"code","message","details"} with Encore's status for the code.
import type { CacheKeyspaceMeta } from "../meta/types.ts";
import type { TraceDetail, TraceSummary } from "../tracing/records.ts";

export type { TraceDetail, TraceSummary };

/** GET /api/app */
export interface AppInfo {
  readonly appName: string;
  /** Where the app itself serves, e.g. "http://localhost:4000". */
  readonly appBaseUrl: string;
  /** Changes on every restart of the app: the front end refetches everything when it does. */
  readonly bootId: string;
  readonly startedAt: string;
  readonly tracing: { readonly keep: number; readonly otlpEndpoint: string | null };
}

/** A TypeScript-like rendering of a schema, with the source's doc comments. */
export type TypeText = string;

export interface CatalogField {
  readonly name: string;
  readonly location: "path" | "query" | "header" | "body" | "cookie";
  readonly wireName: string;
  readonly optional: boolean;
  readonly type: TypeText;
  readonly doc: string | null;
}

export interface CatalogEndpoint {
  readonly service: string;
  readonly name: string;
  readonly kind: "typed" | "raw" | "static" | "stream";
  readonly methods: readonly string[];
  readonly path: string;
  readonly expose: boolean;
  readonly auth: boolean;
  readonly doc: string | null;
  readonly tags: readonly string[];
  /** Where it is declared: "links/shorten.ts:42". */
  readonly source: string;
  /** Null when the handler takes no parameters. */
  readonly request: {
    readonly fields: readonly CatalogField[];
    /** The whole parameter type. */
    readonly type: TypeText;
  } | null;
  /** Null when it returns nothing (and for raw, static and stream endpoints). */
  readonly response: TypeText | null;
  /** A request to start from, made from the request type: what the explorer prefills. */
  readonly example: ExplorerRequest;
}

export interface CatalogService {
  readonly name: string;
  readonly doc: string | null;
  readonly dir: string;
  readonly endpoints: readonly CatalogEndpoint[];
  /** Databases it declares. */
  readonly databases: readonly string[];
  /** Topics it declares. */
  readonly topics: readonly string[];
  /** Topics it publishes to (found by the parser). */
  readonly publishes: readonly string[];
  readonly subscriptions: readonly { readonly name: string; readonly topic: string }[];
  readonly cronJobs: readonly string[];
  readonly buckets: readonly string[];
  /** Services it calls through ~encore/clients. */
  readonly calls: readonly string[];
}

/** GET /api/catalog */
export interface Catalog {
  readonly services: readonly CatalogService[];
  /** Secret names only, never values. */
  readonly secrets: readonly string[];
  readonly auth: { readonly service: string; readonly name: string; readonly params: TypeText; readonly authData: TypeText } | null;
}

/** GET /api/flow: the graph; the front end lays it out. Node ids are "<kind>:<name>". */
export interface Flow {
  readonly nodes: readonly { readonly id: string; readonly kind: "service" | "topic" | "database" | "bucket" | "cron"; readonly label: string }[];
  readonly edges: readonly {
    readonly from: string;
    readonly to: string;
    /** service->service "calls"; service->topic "publishes"; topic->service "subscribes"; service->database/bucket "uses"; cron->service "schedules". */
    readonly kind: "calls" | "publishes" | "subscribes" | "uses" | "schedules";
    readonly label?: string;
  }[];
}

export type ExplorerAuth =
  | { readonly kind: "none" }
  /** Sent as Authorization: Bearer <token>, through the app's auth handler. */
  | { readonly kind: "bearer"; readonly token: string }
  /** Internal endpoints only: the handler runs with this auth data, the auth handler is skipped. */
  | { readonly kind: "authData"; readonly data: Readonly<Record<string, unknown>> };

export interface ExplorerRequest {
  readonly method: string;
  /** The path with its parameters filled in, e.g. "/url/abc123". */
  readonly path: string;
  readonly query: readonly (readonly [string, string])[];
  readonly headers: Readonly<Record<string, string>>;
  /** JSON text; null for no body. */
  readonly body: string | null;
}

/** POST /api/call */
export interface CallRequest extends ExplorerRequest {
  readonly service: string;
  readonly endpoint: string;
  readonly auth: ExplorerAuth;
}

export interface CallResult {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The response body as text (base64 with bodyEncoding "base64" when it is not UTF-8 text). */
  readonly body: string;
  readonly bodyEncoding: "utf8" | "base64";
  readonly durationMs: number;
  /** The trace the call made, when tracing is on. */
  readonly traceId: string | null;
}

/** GET /api/traces?service=&name=&status=&minMs=&limit= */
export interface TraceList {
  readonly traces: readonly TraceSummary[];
}

/**
 * GET /api/events: server-sent events.
 *   event: hello  data: AppInfo        (on every connect: a new bootId means the app restarted)
 *   event: trace  data: TraceSummary   (a trace finished)
 */
export type DashboardEvent = { readonly event: "hello"; readonly data: AppInfo } | { readonly event: "trace"; readonly data: TraceSummary };

export interface SubscriptionState {
  readonly name: string;
  readonly service: string;
  /** Messages waiting for delivery. */
  readonly backlog: number;
  readonly inFlight: number;
  readonly deadLetters: number;
}

/** GET /api/pubsub */
export interface PubSubState {
  readonly provider: "sql" | "nats";
  readonly topics: readonly {
    readonly name: string;
    readonly service: string;
    readonly publishers: readonly string[];
    readonly subscriptions: readonly SubscriptionState[];
  }[];
}
/** POST /api/pubsub/publish {topic, message} -> {messageId}; POST /api/pubsub/redrive {topic, subscription} -> {redriven} */
export interface PublishRequest {
  readonly topic: string;
  readonly message: Readonly<Record<string, unknown>>;
}

export interface CronRun {
  readonly startedAt: string;
  readonly durationMs: number | null;
  readonly trigger: "schedule" | "manual";
  readonly outcome: "running" | "succeeded" | "failed" | "skipped" | "abandoned";
  readonly error: string | null;
}

/** GET /api/cron */
export interface CronState {
  /** False when this instance runs no cron jobs (CRON=off). */
  readonly enabled: boolean;
  readonly jobs: readonly {
    readonly name: string;
    readonly title: string | null;
    readonly service: string;
    readonly endpoint: { readonly service: string; readonly name: string };
    /** "every 1h" or the cron expression, always UTC. */
    readonly schedule: string;
    readonly nextRun: string | null;
    /** Newest first, at most 20. */
    readonly lastRuns: readonly CronRun[];
  }[];
}
/** POST /api/cron/:job/run -> CronRunResult (waits for the run to finish) */
export interface CronRunResult {
  readonly outcome: "succeeded" | "failed";
  readonly durationMs: number;
  readonly error: string | null;
  readonly traceId: string | null;
}

/** GET /api/databases */
export interface DatabasesState {
  /** Whether the SQL console can run on this server; when not, why (the page shows it instead of the editor). */
  readonly console:
    | { readonly available: true; readonly limits: { readonly rows: number; readonly bytes: number; readonly statementTimeoutMs: number } }
    | { readonly available: false; readonly reason: string };
  readonly databases: readonly {
    readonly name: string;
    readonly service: string;
    /** The database's name on the PostgreSQL server. */
    readonly physicalName: string;
    readonly migrations: readonly { readonly name: string; readonly appliedAt: string | null }[];
    readonly tables: readonly { readonly schema: string; readonly name: string; readonly rowEstimate: number; readonly sizeBytes: number }[];
  }[];
}
/**
 * POST /api/databases/:name/query {sql}: one query, as the console's read-only role on a
 * session of its own, through a cursor, in a transaction that is rolled back. When the
 * console is off: 400 failed_precondition with the reason.
 */
export interface QueryResult {
  readonly columns: readonly { readonly name: string; readonly type: string }[];
  /** Values as JSON: numbers, strings, booleans, null, objects for json columns; bytea as "\\x..." text. */
  readonly rows: readonly (readonly unknown[])[];
  readonly rowCount: number;
  /** True when the query had more than the rows shown. */
  readonly truncated: boolean;
  /** What cut it: more rows than the console shows (1,000), or more bytes than it reads (4 MiB); null when whole. */
  readonly truncatedBy: "rows" | "bytes" | null;
  readonly durationMs: number;
}

/** GET /api/buckets */
export interface BucketsState {
  readonly buckets: readonly { readonly name: string; readonly service: string; readonly public: boolean; readonly versioned: boolean }[];
}
/** GET /api/buckets/:name/objects?prefix=&after= ; download: GET /api/buckets/:name/download?key= */
export interface ObjectList {
  readonly objects: readonly {
    readonly name: string;
    readonly size: number;
    readonly contentType: string | null;
    /** Null for a private bucket. */
    readonly publicUrl: string | null;
  }[];
  /** Pass as ?after= for the next page; null on the last. */
  readonly next: string | null;
}

/** GET /api/caches: the app's cache clusters and their keyspaces, as the parser read them. */
export interface CachesState {
  /** Where the keys are: this process's memory, or the Redis of REDIS_URL. */
  readonly backend: "memory" | "redis";
  readonly clusters: readonly {
    readonly name: string;
    readonly evictionPolicy: string;
    /** As the metadata has them, with where each is declared as "svc/cache.ts:12". */
    readonly keyspaces: readonly (Omit<CacheKeyspaceMeta, "declaredIn"> & { readonly source: string })[];
  }[];
}

/** GET /api/caches/:cluster/key?key=: one key, read without changing it. */
export interface CacheKeyLookup {
  readonly cluster: string;
  /** The key as the keyspace makes it (e.g. "user/42"), without the cluster's prefix. */
  readonly key: string;
  /** Null when the key does not exist (or has expired). */
  readonly entry: {
    readonly type: "string" | "list" | "set";
    /** The string; a list's items in order; a set's members, sorted. */
    readonly value: string | readonly string[];
    /** Milliseconds left; null when it does not expire. */
    readonly ttlMs: number | null;
  } | null;
}
