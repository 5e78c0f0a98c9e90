import { appMeta } from "encore.dev";
import { api, APIError } from "encore.dev/api";
import { staticFirstSegments } from "~encore/routes";
import { generateCode } from "./codes";
import { checkTarget } from "./target";
import { urlStore } from "./url-store";

export interface ShortenRequest {
  /** The long URL: absolute http or https, at most 2048 characters. */
  url: string;
}

export interface ShortenResponse {
  /** The 6-character short code. */
  code: string;
  /** The absolute short link: the service's public address and the code. */
  shortUrl: string;
}

/** Stores a URL under a new random 6-character code. */
export const shorten = api(
  { expose: true, method: "POST", path: "/shorten" },
  async ({ url }: ShortenRequest): Promise<ShortenResponse> => {
    const baseUrl = appMeta().apiBaseUrl;
    const code = await storeUnderFreshCode(checkTarget(url, baseUrl));
    return { code, shortUrl: `${baseUrl}/${code}` };
  },
);

/**
 * With 36^6 ≈ 2.2 billion codes, a collision is rare until the table is large; five
 * draws in a row all taken means the space is nearly full, which an operator must hear of.
 */
export const maxCodeAttempts = 5;

/**
 * Stores `target` under the first drawn code that is free and does not shadow a
 * route (a code "orders" would make GET /orders unreachable as a short link).
 */
export async function storeUnderFreshCode(target: string, drawCode: () => string = generateCode): Promise<string> {
  for (let attempt = 0; attempt < maxCodeAttempts; attempt++) {
    const code = drawCode();
    if (staticFirstSegments.has(code)) continue;
    // Not cached here: only a lookup caches a link, and a lookup counts a click, so a
    // link with no clicks (all the cleanup job deletes) is in no instance's cache and
    // a deleted code, if drawn again, can never be answered with its old URL.
    if (await urlStore.insert(code, target)) return code;
  }
  throw APIError.unavailable(`no free short code found in ${maxCodeAttempts} attempts; please retry`);
}
