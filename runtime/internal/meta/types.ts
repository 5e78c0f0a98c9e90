/**
 * The app metadata: what the parser reads out of the Encore source, and all the
 * runtime needs to serve it. Written to encore.gen/internal/meta.json.
 * Paths are relative to the app root, with forward slashes.
 */
export interface AppMeta {
  /** Bumped when this shape changes, so stale generated output is rebuilt. */
  readonly version: 9;
  /** encore.app's "id": the Encore Cloud app it is linked to, "" when it is not. */
  readonly appId: string;
  readonly services: readonly ServiceMeta[];
  readonly databases: readonly DatabaseMeta[];
  /** Names passed to `secret("...")`, sorted, de-duplicated. */
  readonly secrets: readonly string[];
  /** `new Topic(...)` and `new Subscription(...)` declarations, sorted by name. */
  readonly topics: readonly TopicMeta[];
  readonly subscriptions: readonly SubscriptionMeta[];
  /** `new CronJob(...)` declarations, sorted by name. */
  readonly cronJobs: readonly CronJobMeta[];
  /** `new Bucket(...)` declarations, sorted by name. */
  readonly buckets: readonly BucketMeta[];
  /** `new CacheCluster(...)` declarations with their keyspaces, sorted by name. */
  readonly caches: readonly CacheClusterMeta[];
  /** The auth handler the app's Gateway runs; null when there is none. */
  readonly auth: AuthHandlerMeta | null;
  /** encore.dev/metrics declarations (`new Counter(...)`, `new GaugeGroup<L>(...)`, ...), sorted by name. */
  readonly metrics: readonly MetricMeta[];
}

/** A custom metric, exported at /metrics with a `service` label the runtime adds. */
export interface MetricMeta {
  /** snake_case, not starting with "e_" (the runtime's own metrics). */
  readonly name: string;
  readonly kind: "counter" | "gauge";
  /** Label names as exported (snake_case), sorted; empty for Counter and Gauge. */
  readonly labels: readonly string[];
  /** Service whose folder declares it; null when declared outside any service. */
  readonly service: string | null;
  /**
   * Services using it, sorted: the declaring one and those naming it. With exactly one, its
   * series are labelled with that service wherever it is updated (a timer, a background task),
   * as in Encore; otherwise with the service of the request being handled.
   */
  readonly usedBy: readonly string[];
  readonly declaredIn: SourceLocation;
}

/**
 * `const name = authHandler(fn)`, attached with `new Gateway({ authHandler: name })` (or
 * written inline there). The runtime takes it from the Gateway, as Encore does, and calls
 * it whenever a request carries at least one of its parameters.
 */
export interface AuthHandlerMeta {
  /** Service whose folder declares it. */
  readonly service: string;
  /** The variable it is bound to, e.g. "auth"; the Gateway's variable when written inline in it. */
  readonly name: string;
  /** The name its module exports it under; null when not exported (its type is then written out from authData). */
  readonly exportName: string | null;
  /** Module that declares it, e.g. "auth/auth.ts". */
  readonly file: string;
  readonly line: number;
  /** Its parameters: header and query fields only (path and body are null). */
  readonly params: RequestMeta;
  /** What it returns for an authenticated caller: an object type with `userID: string`. */
  readonly authData: JSONSchema;
  /** Where `new Gateway({ authHandler })` attaches it. */
  readonly gateway: SourceLocation;
}

/** An object storage bucket; the server imports its file at boot so the declaration runs. */
export interface BucketMeta {
  readonly name: string;
  /** Service whose folder declares it. */
  readonly service: string;
  /** Objects can be fetched by anyone at their public URL. */
  readonly public: boolean;
  readonly versioned: boolean;
  /** Services that use it, sorted: the declaring one and those referring to it (see DatabaseMeta.usedBy). */
  readonly usedBy: readonly string[];
  readonly declaredIn: SourceLocation;
}

/** A cache cluster (encore.dev/storage/cache): its keys live under "<name>/" in the store. */
export interface CacheClusterMeta {
  readonly name: string;
  /** Redis's maxmemory-policy it asks for; "allkeys-lru" when not given. */
  readonly evictionPolicy: string;
  readonly keyspaces: readonly CacheKeyspaceMeta[];
  readonly declaredIn: SourceLocation;
}

export interface CacheKeyspaceMeta {
  /** The class: "StringKeyspace", "IntKeyspace", "StructKeyspace", "StringSetKeyspace", ... */
  readonly type: string;
  /** e.g. "user/:id" */
  readonly keyPattern: string;
  /** The key and value types as written in the source. */
  readonly keyType: string;
  readonly valueType: string;
  /** The defaultExpiry expression as written, e.g. "expireInHours(1)"; null when there is none. */
  readonly defaultExpiry: string | null;
  /** Service whose folder declares it; null outside any service. */
  readonly service: string | null;
  readonly declaredIn: SourceLocation;
}

/** A scheduled job: which endpoint it calls, and when (always in UTC). */
export interface CronJobMeta {
  /** The job's id, the first argument of `new CronJob`. */
  readonly name: string;
  readonly title: string | null;
  /** Service whose folder declares the job. */
  readonly service: string;
  /** The endpoint it calls: an app endpoint that takes no parameters. */
  readonly endpoint: { readonly service: string; readonly name: string };
  readonly schedule: CronSchedule;
  readonly declaredIn: SourceLocation;
}

/**
 * `every`: at each multiple of `minutes` since midnight UTC (it divides 24 h).
 * `cron`: a 5-field cron expression (minute hour day-of-month month day-of-week), read in UTC.
 */
export type CronSchedule =
  | { readonly kind: "every"; readonly minutes: number }
  | { readonly kind: "cron"; readonly expression: string };

/** `new Topic(name, cfg)`; the server imports its file at boot so the declaration runs. */
export interface TopicMeta {
  readonly name: string;
  /** Service whose folder declares it. */
  readonly service: string;
  /** Services that publish to it, sorted: those calling `.publish(...)` on it, or `.ref<Publisher<...>>()`, as Encore counts them. */
  readonly publishers: readonly string[];
  /** Its message type (`new Topic<Message>`), as JSON Schema: what the dashboard checks a test message against. */
  readonly message: JSONSchema;
  readonly declaredIn: SourceLocation;
}

/** `new Subscription(topic, name, cfg)`; the server imports its file at boot so the declaration runs. */
export interface SubscriptionMeta {
  /** Unique per topic only. */
  readonly name: string;
  /** Service whose folder declares it: the one whose handler receives the messages. */
  readonly service: string;
  /** Name of the topic it subscribes to. */
  readonly topic: string;
  readonly declaredIn: SourceLocation;
}

export interface ServiceMeta {
  /** From `new Service("name")` in encore.service.ts, else the folder's name. */
  readonly name: string;
  /** The service's folder, e.g. "urlb": the one holding encore.service.ts, or one declaring endpoints without it (named after it, as in Encore). */
  readonly dir: string;
  /** Its encore.service.ts, app-relative; null when the folder is a service by what it declares. */
  readonly serviceFile: string | null;
  /** The comment above `export default new Service(...)` in encore.service.ts (Encore's rule: the comment lines directly above); null without one. */
  readonly doc: string | null;
  readonly endpoints: readonly EndpointMeta[];
  /** Services it calls through `~encore/clients` (`svc.endpoint(...)` in its files), sorted, itself left out. */
  readonly calls: readonly string[];
}

export interface DatabaseMeta {
  readonly name: string;
  /** Service whose folder declares it. */
  readonly service: string;
  /** Migrations folder, resolved against the declaring file, e.g. "urlb/migrations". Null when none is configured. */
  readonly migrationsDir: string | null;
  /** "sql" for NNN_name.up.sql files, "drizzle" for drizzle-kit's layout, "prisma" for Prisma Migrate's. */
  readonly migrationsSource: "sql" | "drizzle" | "prisma";
  /**
   * Services that use it, sorted: the declaring one, and those whose files refer to its
   * variable (imported or not) or name it with `SQLDatabase.named("...")`.
   */
  readonly usedBy: readonly string[];
  readonly declaredIn: SourceLocation;
}

export interface SourceLocation {
  readonly file: string;
  readonly line: number;
}

/** "stream": api.streamIn, api.streamOut or api.streamInOut, served over WebSocket. */
export type EndpointKind = "typed" | "raw" | "static" | "stream";

export interface EndpointMeta {
  readonly service: string;
  /** The exported const name, e.g. "get". */
  readonly name: string;
  readonly kind: EndpointKind;
  /** Module that exports the endpoint, e.g. "urlb/url.ts". */
  readonly file: string;
  readonly line: number;
  /** The comment directly above `export const name = api(...)`: `//` lines or one block comment, JSDoc stars removed; null without one. */
  readonly doc: string | null;
  readonly expose: boolean;
  readonly auth: boolean;
  /** Upper-case methods; ["*"] matches any. Encore's default is POST for typed endpoints. */
  readonly methods: readonly string[];
  /** Encore path syntax: "/url/:id", "/files/*path". Default "/<service>.<name>". */
  readonly path: string;
  readonly pathParams: readonly PathParam[];
  /** Bytes; null = unlimited; undefined = runtime default (2 MiB). */
  readonly bodyLimit?: number | null;
  readonly tags: readonly string[];
  readonly sensitive: boolean;
  /** Null when the handler takes no parameters. For streams: the handshake (path, query, headers). */
  readonly request: RequestMeta | null;
  /** Null when the handler returns void; always null for streams (see `stream`). Header fields included. */
  readonly response: JSONSchema | null;
  /**
   * The response's `Header<...>` fields, sent as response headers and left out of the JSON
   * body, as Encore does; absent when it has none. In-process calls get them as fields.
   */
  readonly responseHeaders?: readonly ResponseHeaderField[];
  /**
   * The response's `Cookie<...>` fields, sent as Set-Cookie: absent when there are none.
   * They are left out of `response`, which describes the JSON body, as Encore's client
   * and OpenAPI document leave them out. `wireName` is the cookie's name, case kept.
   */
  readonly responseCookies?: readonly ResponseHeaderField[];
  /**
   * The response field declared as `HttpStatus`: its value is the HTTP status of the answer,
   * and it is not in `response` (nor the body, the clients, the OpenAPI document), as in Encore.
   */
  readonly httpStatusField?: string;
  /** Only for kind "static". */
  readonly static?: StaticMeta;
  /** Only for kind "stream". */
  readonly stream?: StreamMeta;
}

/**
 * The messages of a streaming endpoint, each a JSON object. Which way they flow
 * decides what the handler gets: "in" an iterable of incoming messages, "out" a sink
 * for outgoing ones, "inout" both.
 */
export interface StreamMeta {
  readonly direction: "in" | "out" | "inout";
  /** What the client sends; null for "out". */
  readonly incoming: JSONSchema | null;
  /**
   * What the server sends. For "in" it is the handler's return value, sent once as the
   * last message before the stream closes; null when the handler returns nothing.
   */
  readonly outgoing: JSONSchema | null;
}

export interface PathParam {
  readonly name: string;
  /** True for "*name" and "!name" segments, which match the rest of the path (possibly empty). */
  readonly wildcard: boolean;
  /** Set for a "!name" segment: the route is tried only when no other route matches. */
  readonly fallback?: true;
}

export type FieldLocation = "path" | "query" | "header" | "body" | "cookie";

export interface RequestField {
  /** Property name in the handler's parameter object. */
  readonly name: string;
  readonly location: FieldLocation;
  /** Name on the wire: the header name (lower-case), query key or cookie name; equal to `name` otherwise. */
  readonly wireName: string;
  readonly optional: boolean;
}

export interface ResponseHeaderField {
  /** Property name in the handler's response object. */
  readonly name: string;
  /** The header's name, lower-case. */
  readonly wireName: string;
  readonly optional: boolean;
}

export interface RequestMeta {
  readonly fields: readonly RequestField[];
  /**
   * One object schema per location, keyed by wire name, with `required` set.
   * Null when nothing comes from that location. Query and path schemas describe
   * values after coercion from text (numbers, booleans, arrays of those).
   */
  readonly path: JSONSchema | null;
  readonly query: JSONSchema | null;
  readonly headers: JSONSchema | null;
  readonly body: JSONSchema | null;
  /**
   * The `Cookie<...>` fields' values, keyed by cookie name (absent or null when there are
   * none). The handler gets each as `{ name, value }`, as in Encore.
   */
  readonly cookies?: JSONSchema | null;
  /** The whole parameter object, keyed by property name: used for in-process calls. */
  readonly full: JSONSchema;
}

export interface StaticMeta {
  /** Folder to serve, relative to the app root. */
  readonly dir: string;
  readonly notFound?: string;
  readonly notFoundStatus?: number;
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
}

/**
 * The JSON Schema (draft 2020-12 subset Ajv and fast-json-stringify understand) the parser emits.
 * `Date` becomes `{ type: "string", format: "date-time", "x-encore-type": "date" }` so the runtime
 * can turn the text back into a Date before the handler runs.
 * Schemas of named types declared in the app (non-generic interfaces, type aliases and enums)
 * carry `"x-encore-ref": { namespace, name, doc }`, for generated clients; the request's
 * `full` schema carries its type's. The OpenAPI document leaves every `x-encore-*` key out.
 */
export type JSONSchema = { readonly [key: string]: unknown };
