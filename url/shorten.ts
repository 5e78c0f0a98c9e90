import { appMeta } from "encore.dev";
import { api, APIError, type Header } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { addressKey } from "../limits/address";
import { linkLimits } from "../limits/links";
import { generateCode } from "./shortening/codes";
import { storeUnderFreshCode } from "./shortening/fresh-code";
import { urlConfig } from "./config/url-config";
import { qrCodes, qrObjectName } from "./qr-codes";
import { checkTarget } from "./shortening/target";
import { refuseBannedHost } from "./moderation/host-check";

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
 *
 * Publishes: it stores the link and its url-shortened event in one transaction
 * (outbox/url-store.ts); the outbox relay publishes the event to the url-shortened
 * topic (events.ts) after the commit, without holding the answer up. With QR codes
 * on, the code's image goes to the qr-codes bucket first.
 */
export const shorten = api(
  { expose: true, method: "POST", path: "/shorten" },
  async ({ url, forwardedFor }: ShortenRequest): Promise<ShortenResponse> => {
    const user = getAuthData();
    if (!user && urlConfig.requireLoginToShorten) throw APIError.unauthenticated("sign in to shorten URLs");
    const baseUrl = appMeta().apiBaseUrl;
    const target = checkTarget(url, baseUrl, linkLimits.config.deniedHosts);
    await refuseBannedHost(target);
    // Counted once the request is valid: a rejected URL costs no budget, a stored one always does.
    await linkLimits.count({ address: addressKey(forwardedFor), userID: user?.userID });
    const code = await storeUnderFreshCode(target, generateCode, user?.userID ?? null);
    const shortUrl = `${baseUrl}/${code}`;
    if (!urlConfig.qrCodes) return { code, shortUrl };
    return { code, shortUrl, qrCodeUrl: qrCodes.publicUrl(qrObjectName(code)) };
  },
);
