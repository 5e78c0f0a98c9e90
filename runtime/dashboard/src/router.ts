import { useEffect, useMemo, useState } from "preact/hooks";

/** The pages, addressed by the URL's hash: the server only ever serves index.html at /. */
export type Route =
  | { page: "services"; service: string | null }
  | { page: "endpoint"; service: string; endpoint: string }
  | { page: "flow" }
  | { page: "traces"; filters: URLSearchParams }
  | { page: "trace"; id: string }
  | { page: "pubsub" }
  | { page: "cron" }
  | { page: "databases"; name: string | null }
  | { page: "buckets"; name: string | null }
  | { page: "caches"; name: string | null }
  | { page: "missing" };

export function parseRoute(hash: string): Route {
  const [pathPart = "", queryPart = ""] = hash.replace(/^#/, "").split("?", 2);
  let parts: string[];
  try {
    parts = pathPart.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return { page: "missing" };
  }
  const [page = "services", a, b, ...rest] = parts;
  if (rest.length > 0) return { page: "missing" };
  switch (page) {
    case "services":
      if (a !== undefined && b !== undefined) return { page: "endpoint", service: a, endpoint: b };
      return { page: "services", service: a ?? null };
    case "traces":
      if (b !== undefined) break;
      return a === undefined ? { page: "traces", filters: new URLSearchParams(queryPart) } : { page: "trace", id: a };
    case "flow":
    case "pubsub":
    case "cron":
      if (a === undefined) return { page };
      break;
    case "databases":
    case "buckets":
    case "caches":
      if (b === undefined) return { page, name: a ?? null };
      break;
  }
  return { page: "missing" };
}

const e = encodeURIComponent;

export const href = {
  services: "#/services",
  service: (name: string) => `#/services/${e(name)}`,
  endpoint: (service: string, name: string) => `#/services/${e(service)}/${e(name)}`,
  flow: "#/flow",
  traces: (filters?: Record<string, string>) => `#/traces${filters ? `?${new URLSearchParams(filters).toString()}` : ""}`,
  trace: (id: string) => `#/traces/${e(id)}`,
  pubsub: "#/pubsub",
  cron: "#/cron",
  databases: "#/databases",
  database: (name: string) => `#/databases/${e(name)}`,
  buckets: "#/buckets",
  bucket: (name: string) => `#/buckets/${e(name)}`,
  caches: "#/caches",
  cache: (name: string) => `#/caches/${e(name)}`,
};

export function useRoute(): Route {
  const [hash, setHash] = useState(() => location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    addEventListener("hashchange", onChange);
    // The effect runs after the first render: a hash changed in between fired no event we heard.
    onChange();
    return () => removeEventListener("hashchange", onChange);
  }, []);
  return useMemo(() => parseRoute(hash), [hash]);
}
