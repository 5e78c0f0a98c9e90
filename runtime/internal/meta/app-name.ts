import path from "node:path";
import type { AppMeta } from "./types.ts";

/**
 * The app's name where a document or client names it (the OpenAPI title, a client's
 * User-Agent): its Encore Cloud app ID when linked, else its folder's name.
 */
export function appName(meta: AppMeta, appRoot: string): string {
  return meta.appId || path.basename(appRoot);
}

/** The environment's name where the app reports it (appMeta(), the health check): one self-hosted deployment. */
export const environmentName = "self-hosted";
