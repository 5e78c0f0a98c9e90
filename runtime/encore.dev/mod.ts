// encore.dev: the package root.
export { appMeta } from "./app-meta.ts";
export type { AppMeta, BuildMeta, CloudProvider, DeployMeta, EnvironmentMeta, EnvironmentType, HostedService } from "./app-meta.ts";
