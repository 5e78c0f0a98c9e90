import type { AppMeta, EndpointMeta, ServiceMeta } from "../meta/types.ts";
import type { Catalog, CatalogEndpoint, CatalogField, CatalogService } from "./api.ts";
import { exampleRequest } from "./examples.ts";
import { fieldTypeText, typeText } from "./type-text.ts";

/** GET /api/catalog: every service with its endpoints, their types and docs, and what it declares and uses. */
export function catalog(meta: AppMeta): Catalog {
  return {
    services: meta.services.map((service) => catalogService(meta, service)),
    secrets: meta.secrets,
    auth: meta.auth && {
      service: meta.auth.service,
      name: meta.auth.name,
      params: typeText(meta.auth.params.full, meta.auth.service),
      authData: typeText(meta.auth.authData, meta.auth.service),
    },
  };
}

function catalogService(meta: AppMeta, service: ServiceMeta): CatalogService {
  const own = <T extends { service: string; name: string }>(items: readonly T[]) => items.filter((i) => i.service === service.name).map((i) => i.name);
  return {
    name: service.name,
    doc: service.doc,
    dir: service.dir,
    endpoints: service.endpoints.map(catalogEndpoint),
    databases: own(meta.databases),
    topics: own(meta.topics),
    publishes: meta.topics.filter((t) => t.publishers.includes(service.name)).map((t) => t.name),
    subscriptions: meta.subscriptions
      .filter((s) => s.service === service.name)
      .map((s) => ({ name: s.name, topic: s.topic })),
    cronJobs: own(meta.cronJobs),
    buckets: own(meta.buckets),
    calls: service.calls,
  };
}

function catalogEndpoint(meta: EndpointMeta): CatalogEndpoint {
  const ns = meta.service;
  const request = meta.request;
  const properties = (request?.full["properties"] ?? {}) as Record<string, Record<string, unknown>>;
  const fields: CatalogField[] =
    request?.fields.map((f) => {
      const schema = properties[f.name] ?? {};
      return {
        name: f.name,
        location: f.location,
        wireName: f.wireName,
        optional: f.optional,
        type: fieldTypeText(schema, ns),
        doc: typeof schema["description"] === "string" ? schema["description"] : null,
      };
    }) ?? [];
  return {
    service: meta.service,
    name: meta.name,
    kind: meta.kind,
    methods: meta.methods,
    path: meta.path,
    expose: meta.expose,
    auth: meta.auth,
    doc: meta.doc,
    tags: meta.tags,
    source: `${meta.file}:${meta.line}`,
    request: request && { fields, type: typeText(request.full, ns) },
    response: meta.kind === "typed" && meta.response ? typeText(meta.response, ns) : null,
    example: exampleRequest(meta),
  };
}
