import { APIError } from "encore.dev/api";
import { linksConfig } from "../links-config";
import { db } from "../db";
import { urlStore, type LinkDetails } from "../outbox/url-store";
import { qrObjectName } from "../../link-rules/qr-images";
import { qrCodes } from "../qr-codes";
import { qrCodeStored } from "./fresh-code";

/**
 * Stores `target` under `alias` (checked by links/options.ts checkAlias), through the same
 * group commit as random codes. Taken when a link has it in any case (even a deleted one:
 * its row stays) or it is a retired code: 409 already_exists.
 *
 * With QR codes on, the image is stored first, as for a random code, so a stored link
 * always has its image. An image already there is the right one (an image encodes only
 * the short link) and is kept; one this call made is removed again when the alias turns
 * out taken, unless a link has exactly this code (two requests for one alias at once: the
 * winner's image is the same object).
 */
export async function storeUnderAlias(alias: string, target: string, details: LinkDetails): Promise<string> {
  const imageMade = linksConfig.qrCodes && (await qrCodeStored(alias, details.domain ?? null));
  let stored: boolean;
  try {
    stored = await urlStore.insert(alias, target, details);
  } catch (err) {
    if (imageMade) await removeImageUnlessUsed(alias);
    throw err;
  }
  if (stored) return alias;
  if (imageMade) await removeImageUnlessUsed(alias);
  throw APIError.alreadyExists(`alias "${alias}" is taken`);
}

/** Tidy only: an image left behind just keeps its code from being drawn at random. */
async function removeImageUnlessUsed(code: string): Promise<void> {
  try {
    if (await db.queryRow`SELECT 1 AS one FROM urls WHERE code = ${code}`) return;
    await qrCodes.remove(qrObjectName(code));
  } catch {
    // left behind: see above
  }
}
