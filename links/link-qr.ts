import { currentRequest } from "encore.dev";
import { api, APIError } from "encore.dev/api";
import { clientAddressKey } from "../limits/client-address";
import { qrImageLimits } from "../limits/qr-images";
import { isWellFormedCode } from "../link-rules/codes";
import { shortUrlOf } from "../link-rules/short-url";
import { db } from "./db";
import { linksConfig } from "./links-config";
import { qrOptionsOf } from "./qr-images/options";
import { qrImage, recentQrImage } from "./qr-images/render";

/**
 * GET /links/:code/qr?format=png|svg&size=&color=&background=&margin=: the QR image of a
 * link's short link (its domain's when it has one), drawn as asked (qr-images/options.ts
 * for the parameters and their defaults; a bad one is 400 naming it). Public, as the short
 * link is: anyone who has the link may print it. Unknown, deleted or disabled codes are
 * 404. Each image drawn counts against the client address's limit (limits/qr-images.ts,
 * 429 past it); one among the recent renders is sent without counting.
 *
 * A raw endpoint, because the answer is an image, not JSON. It may be kept long: the image
 * encodes only the short link, and a code's short link never changes (the domain is set
 * when the link is made, never after).
 */
export const linkQr = api.raw({ expose: true, method: "GET", path: "/links/:code/qr" }, async (req, res) => {
  const url = new URL(req.url ?? "/", "http://query.invalid");
  const options = qrOptionsOf(url.searchParams);
  const call = currentRequest();
  const code = call?.type === "api-call" ? String((call.pathParams as Record<string, unknown>).code ?? "") : "";
  const shortUrl = isWellFormedCode(code) ? await liveShortUrlOf(code) : undefined;
  if (shortUrl === undefined) throw APIError.notFound("url not found");
  let image = recentQrImage(shortUrl, options);
  if (image === undefined) {
    await qrImageLimits.count(clientAddressKey(req, linksConfig.trustProxy));
    image = await qrImage(shortUrl, options);
  }
  res.writeHead(200, {
    "content-type": image.contentType,
    "content-length": image.body.length,
    "cache-control": "public, max-age=604800, immutable",
    "x-content-type-options": "nosniff",
    // An SVG opened on its own is a document: it may run nothing, load nothing.
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  });
  res.end(image.body);
});

/** The short link of a live link with `code`; undefined when there is none. */
async function liveShortUrlOf(code: string): Promise<string | undefined> {
  const row = await db.queryRow<{ domain: string | null }>`
    SELECT domain FROM urls WHERE code = ${code} AND deleted_at IS NULL AND disabled_at IS NULL`;
  return row === null ? undefined : shortUrlOf(code, row.domain);
}
