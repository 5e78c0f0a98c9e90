/**
 * The object name of a code's QR image in the qr-codes bucket: the links service stores
 * it when a link is made and removes it with the link; the url service's cleanup removes
 * those of the stale links it deletes.
 */
export function qrObjectName(code: string): string {
  return `${code}.png`;
}
