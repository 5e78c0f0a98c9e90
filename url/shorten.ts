import { appMeta } from "encore.dev";
import { api, APIError, type Header } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import log from "encore.dev/log";
import { addressKey } from "../limits/address";
import { linkLimits } from "../limits/links";
import { generateCode } from "./codes";
import { urlConfig } from "./config";
import { qrCodes, qrObjectName, storeQrCode } from "./qr-codes";
import { routeFirstSegments } from "./route-segments";
import { checkTarget } from "./target";
import { urlStore } from "./url-store";

export interface ShortenRequest {
  /** The long URL: absolute http or https, at most 2048 characters. */
  url: string;
  /**
   * The client's address, for the limits on creating links. The runtime sets it from the
   * connection, replacing what the client sent, unless it runs behind a trusted proxy
   * (TRUST_PROXY=on), which sets it.
   */
  forwardedFor?: Header<"X-Forwarded-For">;
}

export interface ShortenResponse {
  /** The 6-character short code. */
  code: string;
  /** The absolute short link: the service's public address and the code. */
  shortUrl: string;
  /** Public URL of the PNG QR image of `shortUrl`; only when the QR-code extension is on (QR_CODES=on). */
  qrCodeUrl?: string;
}

/**
 * Stores a URL under a new random 6-character code, recording the signed-in user
 * as its creator. Anonymous shortens are allowed unless REQUIRE_LOGIN_TO_SHORTEN=on.
 * Each address and each user may create a limited number of links in a window
 * (limits/links.ts): past it, 429 resource_exhausted with details.retryAfterSeconds.
 */
export const shorten = api(
  { expose: true, method: "POST", path: "/shorten" },
  async ({ url, forwardedFor }: ShortenRequest): Promise<ShortenResponse> => {
    const user = getAuthData();
    if (!user && urlConfig.requireLoginToShorten) throw APIError.unauthenticated("sign in to shorten URLs");
    const baseUrl = appMeta().apiBaseUrl;
    const target = checkTarget(url, baseUrl, linkLimits.config.deniedHosts);
    // Counted once the request is valid: a rejected URL costs no budget, a stored one always does.
    await linkLimits.count({ address: addressKey(forwardedFor), userID: user?.userID });
    const code = await storeUnderFreshCode(target, generateCode, user?.userID ?? null);
    const shortUrl = `${baseUrl}/${code}`;
    if (!urlConfig.qrCodes) return { code, shortUrl };
    return { code, shortUrl, qrCodeUrl: qrCodes.publicUrl(qrObjectName(code)) };
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
 * With the QR-code extension on, the code's image is stored first (SPEC 4.1): a
 * request whose image cannot be stored fails and stores no record.
 */
export async function storeUnderFreshCode(
  target: string,
  drawCode: () => string = generateCode,
  createdBy: string | null = null,
): Promise<string> {
  for (let attempt = 0; attempt < maxCodeAttempts; attempt++) {
    const code = drawCode();
    if (routeFirstSegments.has(code)) continue;
    if (urlConfig.qrCodes && !(await qrCodeStored(code))) continue; // an image exists: the code is taken
    // Not cached here: only a lookup caches a link, and a lookup counts a click, so a
    // link with no clicks (all the cleanup job deletes) is in no instance's cache and
    // a deleted code, if drawn again, can never be answered with its old URL.
    let stored: boolean;
    try {
      stored = await urlStore.insert(code, target, createdBy);
    } catch (err) {
      // Tidy only: an image left behind is still the right one for its code.
      if (urlConfig.qrCodes) await qrCodes.remove(qrObjectName(code)).catch(() => {});
      throw err;
    }
    if (stored) return code;
  }
  throw APIError.unavailable(`no free short code found in ${maxCodeAttempts} attempts; please retry`);
}

async function qrCodeStored(code: string): Promise<boolean> {
  try {
    return await storeQrCode(code, `${appMeta().apiBaseUrl}/${code}`);
  } catch (err) {
    log.error(err, "storing a QR code failed", { code });
    throw APIError.unavailable("the QR code could not be stored, so nothing was saved; please retry", err as Error);
  }
}
