// encore.dev: the package root.
export { appMeta } from "./app-meta.ts";
export type { AppMeta, BuildMeta, CloudProvider, DeployMeta, EnvironmentMeta, EnvironmentType, HostedService } from "./app-meta.ts";
export { currentRequest } from "./req-meta.ts";
export type { APICallMeta, APIDesc, BaseRequestMeta, Method, PubSubMessageMeta, RequestMeta, TraceData } from "./req-meta.ts";
