/** Paths the runtime serves itself, beside the app's endpoints. */
export const healthPath = "/healthz";

/** Pub/sub operations, when PUBSUB_ADMIN_TOKEN is set. */
export const pubsubAdminPath = "/__encore/pubsub";

export const runtimeRoutes: readonly string[] = [healthPath, pubsubAdminPath];
