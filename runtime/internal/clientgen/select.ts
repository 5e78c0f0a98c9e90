import type { AppMeta, EndpointMeta, ServiceMeta } from "../meta/types.ts";

/** Which services and endpoints a client covers, with the flags of `encore gen client`. */
export interface ClientFilters {
  /** Services to include; all when absent or containing "*". */
  readonly services?: readonly string[];
  readonly excludedServices?: readonly string[];
  /** Endpoint tags: with some, only endpoints carrying one of them are included. */
  readonly tags?: readonly string[];
  readonly excludedTags?: readonly string[];
}

/** A refusal to generate: the message says why, and what to do. */
export class ClientGenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ClientGenError";
  }
}

export interface SelectedService {
  readonly service: ServiceMeta;
  /** Its exposed typed, raw and stream endpoints that pass the tag filters, sorted by name as Encore sorts them. */
  readonly endpoints: readonly EndpointMeta[];
}

/**
 * The services the client has a member for: those selected that have an exposed endpoint
 * (internal and static endpoints are left out, as Encore leaves them out).
 */
export function selectServices(meta: AppMeta, filters: ClientFilters): SelectedService[] {
  const unknown = unknownService(meta, filters);
  if (unknown !== null) throw new ClientGenError(unknown);
  const known = new Set(meta.services.map((s) => s.name));
  const included = !filters.services || filters.services.length === 0 || filters.services.includes("*")
    ? known
    : new Set(filters.services);
  for (const name of filters.excludedServices ?? []) included.delete(name);

  const selected: SelectedService[] = [];
  for (const service of meta.services) {
    const exposed = service.endpoints.filter((e) => e.expose && e.kind !== "static");
    if (!included.has(service.name) || exposed.length === 0) continue;
    const endpoints = exposed.filter((e) => tagsAllow(e, filters)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    selected.push({ service, endpoints });
  }
  return selected;
}

/** Encore's rule: an excluded tag wins; with included tags, the endpoint needs one of them. */
function tagsAllow(endpoint: EndpointMeta, filters: ClientFilters): boolean {
  if (endpoint.tags.some((t) => filters.excludedTags?.includes(t))) return false;
  if (!filters.tags || filters.tags.length === 0) return true;
  return endpoint.tags.some((t) => filters.tags?.includes(t));
}

/** What is wrong when the filters name a service the app does not have; null when they name none. */
export function unknownService(meta: AppMeta, filters: ClientFilters): string | null {
  const known = new Set(meta.services.map((s) => s.name));
  const name = [...(filters.services ?? []), ...(filters.excludedServices ?? [])].find((n) => n !== "*" && !known.has(n));
  return name === undefined ? null : `unknown service "${name}" (the app's services: ${[...known].sort().join(", ") || "none"})`;
}
