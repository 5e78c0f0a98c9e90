import { api, APIError } from "encore.dev/api";
import { SQLDatabase } from "encore.dev/storage/sqldb";
import { randomBytes } from "node:crypto";

const db = new SQLDatabase("urlb", { migrations: "./migrations" });

export interface ShortenParams {
  /** The long URL to store. */
  url: string;
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

/** Stores a URL under a new 8-character id. */
export const shorten = api(
  { expose: true, method: "POST", path: "/url" },
  async ({ url }: ShortenParams): Promise<URL> => {
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
