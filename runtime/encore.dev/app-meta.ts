import { config } from "../internal/config/mod.ts";
import { environmentName } from "../internal/meta/app-name.ts";
import { appMeta as generatedMeta } from "../internal/meta/load.ts";

export interface AppMeta {
  appId: string;
  /** The public address of the app, from PUBLIC_BASE_URL. */
  apiBaseUrl: string;
  environment: EnvironmentMeta;
  build: BuildMeta;
  deploy: DeployMeta;
}

export interface EnvironmentMeta {
  name: string;
  type: EnvironmentType;
  cloud: CloudProvider;
}

export type EnvironmentType = "production" | "development" | "ephemeral" | "test";
export type CloudProvider = "aws" | "gcp" | "azure" | "encore" | "local";

export interface BuildMeta {
  revision: string;
  uncommittedChanges: boolean;
}

export interface DeployMeta {
  id: string;
  hostedServices: Record<string, HostedService>;
}

export interface HostedService {
  name: string;
}

let cached: AppMeta | undefined;

/**
 * Metadata about the running app, as encore.dev's appMeta() gives it.
 * @example
 * const shortUrl = `${appMeta().apiBaseUrl}/${code}`;
 */
export function appMeta(): AppMeta {
  if (!cached) {
    const cfg = config();
    const meta = generatedMeta();
    const services = meta.services.map((s) => s.name);
    cached = Object.freeze({
      appId: meta.appId,
      apiBaseUrl: cfg.publicBaseUrl,
      environment: { name: environmentName, type: cfg.environmentType, cloud: "local" as const },
      build: { revision: "", uncommittedChanges: false },
      deploy: { id: "", hostedServices: Object.fromEntries(services.map((name) => [name, { name }])) },
    });
  }
  return cached;
}
