import type { AppMeta } from "../meta/types.ts";
import { javascriptClient } from "./javascript.ts";
import { openAPIDocument } from "./openapi.ts";
import type { ClientFilters } from "./select.ts";
import { typescriptClient } from "./typescript.ts";

export { ClientGenError, unknownService, type ClientFilters } from "./select.ts";

export const CLIENT_LANGS = ["typescript", "javascript", "openapi"] as const;
export type ClientLang = (typeof CLIENT_LANGS)[number];

/** `encore gen client`'s names for each language, aliases included. */
const ALIASES: Readonly<Record<string, ClientLang>> = {
  typescript: "typescript", ts: "typescript",
  javascript: "javascript", js: "javascript",
  openapi: "openapi", swagger: "openapi", oas: "openapi",
};

export function langOf(name: string): ClientLang | undefined {
  return ALIASES[name.trim().toLowerCase()];
}

/** The language an output file's extension implies, as `encore gen client` detects it. */
export function langOfFile(file: string): ClientLang | undefined {
  const extension = file.toLowerCase().match(/\.[^./\\]+$/)?.[0];
  return extension === ".ts" ? "typescript" : extension === ".js" ? "javascript" : undefined;
}

export interface ClientRequest extends ClientFilters {
  readonly lang: ClientLang;
  /** The app's name: the Encore app ID when linked, else its folder's name. */
  readonly appSlug: string;
}

/** The client's text. Throws ClientGenError when something selected cannot be generated. */
export function generateClient(meta: AppMeta, request: ClientRequest): string {
  switch (request.lang) {
    case "typescript":
      return typescriptClient(meta, request.appSlug, request);
    case "javascript":
      return javascriptClient(meta, request.appSlug, request);
    case "openapi":
      return openAPIDocument(meta, request.appSlug, request);
  }
}
