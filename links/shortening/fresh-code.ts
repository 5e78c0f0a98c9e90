import { APIError } from "encore.dev/api";
import log from "encore.dev/log";
import { linksConfig } from "../links-config";
import { plainLink, urlStore, type LinkDetails } from "../outbox/url-store";
import { qrObjectName } from "../../link-rules/qr-images";
import { qrCodes, storeQrCode } from "../qr-codes";
import { generateCode } from "../../link-rules/codes";
import { routeFirstSegments } from "./route-segments";
import { shortUrlOf } from "../../link-rules/short-url";

/**
 * With 36^6 ≈ 2.2 billion codes, a collision is rare until the table is large; five
 * draws in a row all taken means the space is nearly full, which an operator must hear of.
 */
export const maxCodeAttempts = 5;

/**
 * Stores `target` under the first drawn code that is free and does not shadow a
 * route (a code "orders" would make GET /orders unreachable as a short link).
 * With the QR-code extension on, the code's image is stored first, and a request
 * whose image cannot be stored fails and stores no record: a stored link always
 * has its image, and an image left behind only keeps its code from being drawn again.
 */
export async function storeUnderFreshCode(
  target: string,
  drawCode: () => string = generateCode,
  details: LinkDetails = plainLink,
): Promise<string> {
  for (let attempt = 0; attempt < maxCodeAttempts; attempt++) {
    const code = drawCode();
    if (routeFirstSegments.has(code)) continue;
    if (linksConfig.qrCodes && !(await qrCodeStored(code, details.domain ?? null))) continue; // an image exists: the code is taken
    // Not cached here: only a lookup caches a link, and a lookup counts a click, so a
    // link with no clicks (all the cleanup job deletes) is in no instance's cache and
    // a deleted code, if drawn again, can never be answered with its old URL.
    let stored: boolean;
    try {
      stored = await urlStore.insert(code, target, details);
    } catch (err) {
      // Tidy only: an image left behind is still the right one for its code.
      if (linksConfig.qrCodes) await qrCodes.remove(qrObjectName(code)).catch(() => {});
      throw err;
    }
    if (stored) return code;
  }
  throw APIError.unavailable(`no free short code found in ${maxCodeAttempts} attempts; please retry`);
}

/** Stores the code's QR image (of its short link, on `domain` when it has one); false when one exists. 503 unavailable when the bucket fails. */
export async function qrCodeStored(code: string, domain: string | null = null): Promise<boolean> {
  try {
    return await storeQrCode(code, shortUrlOf(code, domain));
  } catch (err) {
    log.error(err, "storing a QR code failed", { code });
    throw APIError.unavailable("the QR code could not be stored, so nothing was saved; please retry", err as Error);
  }
}
