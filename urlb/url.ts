import { api, APIError, type Header } from "encore.dev/api";
import { SQLDatabase } from "encore.dev/storage/sqldb";
import { getAuthData } from "~encore/auth";
import { randomBytes } from "node:crypto";
import { addressKey } from "../limits/address";
import { checkTargetHost, linkLimits } from "../limits/links";
import { requireScope } from "../access/scopes";

const db = new SQLDatabase("urlb", { migrations: "./migrations" });

export interface ShortenParams {
  /** The long URL to store. */
  url: string;
  /** The client's address, for the limits on creating links (set by the runtime, as for POST /shorten). */
  forwardedFor?: Header<"X-Forwarded-For">;
}

export interface URL {
  /** Short identifier: 6 random bytes as URL-safe base64, 8 characters. */
  id: string;
  /** The original URL. */
  url: string;
}

export interface ListResponse {
  urls: URL[];
}

/**
 * Stores a URL under a new 8-character id. The same limits as POST /shorten, on the same
 * budget (limits/links.ts): an address or user creates so many links in a window,
 * whichever variant it uses. The URL is stored as given (this variant validates no
 * URL, as Encore's tutorial does not); when it parses as a URL, its host must not be denied (DENIED_TARGET_HOSTS).
 */
export const shorten = api(
  { expose: true, method: "POST", path: "/url" },
  async ({ url, forwardedFor }: ShortenParams): Promise<URL> => {
    requireScope("links:write");
    if (globalThis.URL.canParse(url)) checkTargetHost(url, linkLimits.config.deniedHosts);
    await linkLimits.count({ address: addressKey(forwardedFor), userID: getAuthData()?.userID });
    const id = generateId();
    await db.exec`INSERT INTO url (id, original_url) VALUES (${id}, ${url})`;
    return { id, url };
  },
);

/** Returns the URL stored under an id. */
export const get = api(
  { expose: true, method: "GET", path: "/url/:id" },
  async ({ id }: { id: string }): Promise<URL> => {
    const row = await db.queryRow<{ original_url: string }>`
      SELECT original_url FROM url WHERE id = ${id}`;
    if (!row) throw APIError.notFound("url not found");
    return { id, url: row.original_url };
  },
);

/** Lists every stored URL. Internal: reachable only from other services. */
export const list = api(
  { expose: false, method: "GET", path: "/url" },
  async (): Promise<ListResponse> => {
    const urls: URL[] = [];
    for await (const row of db.query<{ id: string; original_url: string }>`
      SELECT id, original_url FROM url ORDER BY id`) {
      urls.push({ id: row.id, url: row.original_url });
    }
    return { urls };
  },
);

// 6 random bytes encode to exactly 8 base64url characters, so no padding is ever needed.
function generateId(): string {
  return randomBytes(6).toString("base64url");
}
