/** Paths the runtime serves itself, beside the app's endpoints. */
export const healthPath = "/healthz";

/** Pub/sub operations, when PUBSUB_ADMIN_TOKEN is set. */
export const pubsubAdminPath = "/__encore/pubsub";

/** Objects of the local provider's buckets: /objects/<bucket>/<name>, public or with a signature. */
export const objectsPath = "/objects";

export const runtimeRoutes: readonly string[] = [healthPath, pubsubAdminPath, objectsPath];
