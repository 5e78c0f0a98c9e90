// The span attributes the runtime writes: OpenTelemetry's semantic-convention names
// where one exists, `encore.*` for what the dashboard needs beyond them.

/** The records.ts SpanKind of a span the runtime made. */
export const spanKindAttr = "encore.span.kind";
/** The service the span ran in. */
export const serviceAttr = "encore.service";
/** The endpoint (request, handler, auth), or the endpoint a call or cron job reaches. */
export const endpointAttr = "encore.endpoint";
export const callServiceAttr = "encore.call.service";
export const callEndpointAttr = "encore.call.endpoint";
export const cronJobAttr = "encore.cron.job";
/** "schedule" or "manual". */
export const cronTriggerAttr = "encore.cron.trigger";
export const deliveryAttemptAttr = "encore.pubsub.delivery_attempt";
export const bucketAttr = "encore.objects.bucket";
export const objectKeyAttr = "encore.objects.key";
export const cacheClusterAttr = "encore.cache.cluster";
/** The keyspace's key pattern, e.g. "user/:id". */
export const cacheKeyspaceAttr = "encore.cache.keyspace";
/** Encore's name of the operation: "get", "set if not exists", "push left", ... */
export const cacheOperationAttr = "encore.cache.operation";
/** The first key the operation names, without the cluster's prefix. */
export const cacheKeyAttr = "encore.cache.key";
export const cacheWriteAttr = "encore.cache.write";
/** "hit" or "miss" for reads of one value, "conflict" for a key that exists, "ok" for the rest, "error". */
export const cacheResultAttr = "encore.cache.result";

export const httpMethodAttr = "http.request.method";
export const httpRouteAttr = "http.route";
export const httpStatusAttr = "http.response.status_code";
export const urlPathAttr = "url.path";

export const dbSystemAttr = "db.system.name";
export const dbNamespaceAttr = "db.namespace";
export const dbOperationAttr = "db.operation.name";
export const dbQueryTextAttr = "db.query.text";
export const dbReturnedRowsAttr = "db.response.returned_rows";

export const messagingSystemAttr = "messaging.system";
export const messagingDestinationAttr = "messaging.destination.name";
export const messagingSubscriptionAttr = "messaging.destination.subscription.name";
export const messagingConsumerGroupAttr = "messaging.consumer.group.name";
export const messagingOperationTypeAttr = "messaging.operation.type";
export const messagingMessageIdAttr = "messaging.message.id";

export const errorTypeAttr = "error.type";

/** The response header that carries the trace id, as Encore's gateway names it. */
export const traceIdHeader = "x-encore-trace-id";
