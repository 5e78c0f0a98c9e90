import { LRUCache } from "lru-cache";
import QRCode from "qrcode";
import type { QrOptions } from "./options";
import { qrPng } from "./png";

// QR images rendered on request (GET /links/:code/qr). One render of a short link takes
// about a millisecond, a few for a 2048-pixel PNG (test/qr-options.http.test.ts measures
// them); a small LRU of recent renders spares a page showing the same image to many
// visitors, or a preview redrawn as its options are changed back and forth, even that.

export interface QrImage {
  readonly contentType: string;
  readonly body: Buffer;
}

/** Recent renders by text and options, at most 16 MiB of images (a 2048-pixel PNG is some 30 KiB). */
const recent = new LRUCache<string, QrImage>({ max: 500, maxSize: 16 << 20, sizeCalculation: (image) => image.body.length + 64 });

const keyOf = (text: string, options: QrOptions) => `${options.format} ${options.size} ${options.color} ${options.background} ${options.margin} ${text}`;

/** The QR image of `text` drawn as `options` say when it is among the recent renders; undefined otherwise. */
export function recentQrImage(text: string, options: QrOptions): QrImage | undefined {
  return recent.get(keyOf(text, options));
}

/** The QR image of `text` (a short link) drawn as `options` say. */
export async function qrImage(text: string, options: QrOptions): Promise<QrImage> {
  const key = keyOf(text, options);
  const hit = recent.get(key);
  if (hit !== undefined) return hit;
  const image = await render(text, options);
  recent.set(key, image);
  return image;
}

async function render(text: string, { format, size, color, background, margin }: QrOptions): Promise<QrImage> {
  // Level M recovers from 15% damage, as the stored PNGs (links/qr-codes.ts). Colours are
  // opaque (#rrggbbff): a QR code on a transparent background may vanish on a dark page.
  const common = { errorCorrectionLevel: "M" as const, margin, width: size, color: { dark: `${color}ff`, light: `${background}ff` } };
  if (format === "svg") {
    return { contentType: "image/svg+xml; charset=utf-8", body: Buffer.from(await QRCode.toString(text, { ...common, type: "svg" })) };
  }
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  return { contentType: "image/png", body: qrPng(modules.data, modules.size, size, margin, color, background) };
}
