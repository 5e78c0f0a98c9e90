import type { AppMeta, EndpointMeta } from "../meta/types.ts";
import { readAppId } from "./app-file.ts";
import { findAuthHandler } from "./auth-handler.ts";
import { findBuckets } from "./buckets.ts";
import { findCronJobs } from "./cron-jobs.ts";
import { checkEncoreDevImports } from "./encore-dev-imports.ts";
import { findEndpoints } from "./endpoints.ts";
import { findMetrics } from "./metrics.ts";
import { createAppProgram } from "./program.ts";
import { findPubSub } from "./pubsub.ts";
import { findResources } from "./resources.ts";
import { checkRouteConflicts } from "./routes.ts";
import { SchemaBuilder } from "./schema.ts";
import { checkSdkResolves } from "./sdk-symbols.ts";
import { findServiceCalls } from "./service-calls.ts";
import { findServices } from "./services.ts";
import { checkSupportedImports } from "./unsupported-imports.ts";
import { checkUnreadFiles } from "./unread-files.ts";

export { ParseError } from "./errors.ts";
export { toOpenAPI } from "./openapi.ts";

/**
 * Reads the Encore app at `appRoot` (services, endpoints with their request and response
 * schemas, databases, secrets, pub/sub, cron jobs, buckets, metrics, the auth handler, and which services
 * call, publish to or use which). Throws ParseError, naming file and line, on anything the
 * runtime could not serve faithfully.
 */
export function parseApp(appRoot: string): AppMeta {
  const app = createAppProgram(appRoot);
  checkUnreadFiles(app);
  checkEncoreDevImports(app);
  checkSdkResolves(app);
  checkSupportedImports(app);
  const services = findServices(app);
  const schemas = new SchemaBuilder(app, services);
  const endpoints = findEndpoints(app, services, schemas);
  checkRouteConflicts(endpoints);
  const { databases, secrets } = findResources(app, services);
  const { topics, subscriptions } = findPubSub(app, services, schemas);
  const calls = findServiceCalls(app, services, endpoints);
  const byService = new Map<string, EndpointMeta[]>();
  for (const endpoint of endpoints) {
    byService.set(endpoint.service, [...(byService.get(endpoint.service) ?? []), endpoint]);
  }
  return {
    version: 8,
    appId: readAppId(app.appRoot),
    services: services.map((service) => ({
      name: service.name,
      dir: service.dir,
      serviceFile: service.serviceFile,
      doc: service.doc,
      endpoints: byService.get(service.name) ?? [],
      calls: calls.get(service.name) ?? [],
    })),
    databases,
    secrets,
    topics,
    subscriptions,
    cronJobs: findCronJobs(app, services, endpoints),
    buckets: findBuckets(app, services),
    auth: findAuthHandler(app, services, schemas),
    metrics: findMetrics(app, services),
  };
}
