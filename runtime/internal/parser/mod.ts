import type { AppMeta, EndpointMeta } from "../meta/types.ts";
import { findAuthHandler } from "./auth/auth-handler.ts";
import { findBuckets } from "./buckets/buckets.ts";
import { findCaches } from "./caches/caches.ts";
import { findCronJobs } from "./cron/cron-jobs.ts";
import { findResources } from "./databases/databases-and-secrets.ts";
import { findEndpoints } from "./endpoints/endpoints.ts";
import { checkRouteConflicts } from "./endpoints/routes.ts";
import { findMetrics } from "./metrics/metrics.ts";
import { readAppId } from "./program/app-file.ts";
import { createAppProgram } from "./program/program.ts";
import { checkUnreadFiles } from "./program/unread-files.ts";
import { findPubSub } from "./pubsub/pubsub.ts";
import { SchemaBuilder } from "./schema/schema.ts";
import { checkEncoreDevImports } from "./sdk/encore-dev-imports.ts";
import { checkSdkResolves } from "./sdk/sdk-symbols.ts";
import { findServiceCalls } from "./services/service-calls.ts";
import { findServices } from "./services/services.ts";

export { ParseError } from "./program/errors.ts";
export { toOpenAPI } from "./openapi.ts";

/**
 * Reads the Encore app at `appRoot` (services, endpoints with their request and response
 * schemas, databases, secrets, pub/sub, cron jobs, buckets, caches, metrics, the auth handler, and which services
 * call, publish to or use which). Throws ParseError, naming file and line, on anything the
 * runtime could not serve faithfully.
 */
export function parseApp(appRoot: string): AppMeta {
  const app = createAppProgram(appRoot);
  checkUnreadFiles(app);
  checkEncoreDevImports(app);
  checkSdkResolves(app);
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
    version: 9,
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
    caches: findCaches(app, services),
    auth: findAuthHandler(app, services, schemas),
    metrics: findMetrics(app, services),
  };
}
