// The calls of the link-management and API-key endpoints (issue 30's contract), in one place
// while their endpoints land: until the generated client has them, a plain fetch that fails
// the way the client does (APIError with the server's code and message).
import { APIError, ErrCode } from "./client.gen";
import { currentSession } from "./session";

export type LinkStatus = "active" | "expired" | "exhausted" | "deleted" | "disabled";

export interface Link {
  code: string;
  shortUrl: string;
  originalUrl: string;
  title?: string;
  description?: string;
  clicks: number;
  createdAt: string;
  updatedAt?: string;
  expiresAt?: string;
  maxClicks?: number;
  hasPassword: boolean;
  status: LinkStatus;
  qrCodeUrl?: string;
}

export interface ListLinksRequest {
  q?: string;
  status?: "all" | "active" | "inactive";
  sort?: "newest" | "clicks";
  limit?: number;
  cursor?: string;
}

export interface ListLinksResponse {
  links: Link[];
  nextCursor?: string;
}

/** What an owner may set on a link when creating it. */
export interface LinkOptions {
  alias?: string;
  expiresAt?: string;
  maxClicks?: number;
  password?: string;
  title?: string;
}

/** A change: only the fields present change; null clears. */
export interface LinkChanges {
  url?: string;
  expiresAt?: string | null;
  maxClicks?: number | null;
  password?: string | null;
  title?: string | null;
}

export interface ShortenAnswer {
  code: string;
  shortUrl: string;
  qrCodeUrl?: string;
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt?: string;
  expiresAt?: string;
}

export interface NewApiKey {
  id: string;
  name: string;
  /** The whole key: the server keeps only its hash, so this is the one time it is seen. */
  key: string;
  prefix: string;
  createdAt: string;
  expiresAt?: string;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const token = currentSession()?.token;
  const res = await fetch(path, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) {
    let error = { code: ErrCode.Unknown, message: `request failed: status ${res.status}` };
    try {
      error = JSON.parse(text) as typeof error;
    } catch {
      // Not Encore's JSON: the status says it.
    }
    throw new APIError(res.status, error);
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

function query(params: object): string {
  const entries = Object.entries(params).filter(([, v]) => v !== undefined && v !== "");
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)]))}` : "";
}

export const linksApi = {
  shorten: (url: string, options: LinkOptions) => call<ShortenAnswer>("POST", "/shorten", { url, ...options }),
  list: (params: ListLinksRequest) => call<ListLinksResponse>("GET", `/links${query(params)}`),
  update: (code: string, changes: LinkChanges) => call<Link>("PATCH", `/links/${encodeURIComponent(code)}`, changes),
  remove: (code: string) => call<void>("DELETE", `/links/${encodeURIComponent(code)}`),
};

export const keysApi = {
  create: (name: string, expiresAt?: string) => call<NewApiKey>("POST", "/me/api-keys", { name, expiresAt }),
  list: () => call<{ keys: ApiKey[] }>("GET", "/me/api-keys"),
  revoke: (id: string) => call<void>("DELETE", `/me/api-keys/${encodeURIComponent(id)}`),
};
