/** Paths the runtime serves itself, beside the app's endpoints. */
export const healthPath = "/healthz";

/**
 * Liveness: 200 while the process serves HTTP, whatever its databases do. A probe that
 * restarts the process belongs here; a restart cures no database outage, and one taken
 * during an outage cuts short the stop that writes what the app holds.
 */
export const livenessPath = "/livez";

/** The same readiness in Encore's shape, where load balancers set up for Encore apps look (any method). */
export const encoreHealthPath = "/__encore/healthz";

/** Pub/sub operations, when PUBSUB_ADMIN_TOKEN is set. */
export const pubsubAdminPath = "/__encore/pubsub";

/** Objects of the local provider's buckets: /objects/<bucket>/<name>, public or with a signature. */
export const objectsPath = "/objects";

/** The app's OpenAPI document, when SERVE_OPENAPI=on. */
export const openApiPath = "/openapi.json";

/** Prometheus metrics, on the app's port when METRICS_TOKEN is set without METRICS_PORT. */
export const metricsPath = "/metrics";

export const runtimeRoutes: readonly string[] = [healthPath, livenessPath, encoreHealthPath, pubsubAdminPath, objectsPath, openApiPath, metricsPath];
