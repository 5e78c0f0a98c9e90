/** Paths the runtime serves itself, beside the app's endpoints. */
export const healthPath = "/healthz";

export const runtimeRoutes: readonly string[] = [healthPath];
