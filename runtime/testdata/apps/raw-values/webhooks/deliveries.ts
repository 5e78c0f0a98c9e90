import { middleware, RawResponse } from "encore.dev/api";

let delivered = 0;

/**
 * Numbers every delivery to a raw endpoint with an X-Delivery-Id response header, set
 * before the handler writes its answer (so the handler can read it back, and the sender
 * sees it). Encore hands middlewares its own RawResponse, not Node's ServerResponse.
 */
export const numberDeliveries = middleware({ target: { isRaw: true } }, async (req, next) => {
  const resp = req.rawResponse;
  if (resp instanceof RawResponse) resp.setHeader("X-Delivery-Id", String(++delivered));
  return next(req);
});
