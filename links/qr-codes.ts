import { Bucket, PreconditionFailed } from "encore.dev/storage/objects";
import QRCode from "qrcode";
import { qrObjectName } from "../link-rules/qr-images";

/** QR images of short links: public, so a browser can open them directly. */
export const qrCodes = new Bucket("qr-codes", { public: true, versioned: false });


/**
 * Renders a PNG of `shortUrl` and stores it as `<code>.png`. Resolves false when
 * that object already exists: the code belongs to another link, so the caller
 * draws another. An image encodes only the short link, so an existing object is
 * always the right image for its code and is never overwritten.
 */
export async function storeQrCode(code: string, shortUrl: string): Promise<boolean> {
  // Level M recovers from 15% damage: enough for print and screens, and keeps the
  // image small (a 30-character link fits in a 29×29 module grid).
  const png = await QRCode.toBuffer(shortUrl, { type: "png", errorCorrectionLevel: "M", margin: 4, scale: 8 });
  try {
    await qrCodes.upload(qrObjectName(code), png, { contentType: "image/png", preconditions: { notExists: true } });
    return true;
  } catch (err) {
    if (err instanceof PreconditionFailed) return false;
    throw err;
  }
}
