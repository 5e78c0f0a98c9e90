import type { AppMeta } from "../meta/types.ts";
import { toOpenAPI } from "../parser/openapi.ts";
import { selectServices, type ClientFilters } from "./select.ts";

/** The app's OpenAPI document (as encore.gen/openapi.json has it), narrowed to the selected services and tags. */
export function openAPIDocument(meta: AppMeta, title: string, filters: ClientFilters): string {
  const selected = selectServices(meta, filters);
  const narrowed: AppMeta = {
    ...meta,
    services: selected.map(({ service, endpoints }) => ({ ...service, endpoints })),
  };
  return JSON.stringify(toOpenAPI(narrowed, title), null, 2) + "\n";
}
