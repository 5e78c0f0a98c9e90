import { appMeta } from "encore.dev";
import log from "encore.dev/log";
import { Subscription } from "encore.dev/pubsub";
import { webhookDeliveries, type DeliveryRequested } from "./events";
import { deliveryToSend, recordAttempt } from "./records/delivery-rows";
import { disableForFailures } from "./sending/disable";
import { postTo, type AttemptOutcome } from "./sending/post";
import { signatureHeader, signatureOf } from "./sending/signature";
import { checkTarget, TargetRefused } from "../outbound/target";
import { webhooksConfig } from "./webhooks-config";

/**
 * Sends each queued delivery: checks the target again (its name may resolve elsewhere
 * now) and connects to the address checked only, POSTs the body signed for this attempt,
 * and logs the attempt. A failure throws, so pub/sub tries again with backoff (1 s
 * doubling to 10 min); once the webhook's failures in a row reach
 * WEBHOOK_DISABLE_AFTER_FAILURES it is disabled and its owner told, and its queued
 * deliveries are dropped as they come up.
 */
export const sendDeliveries = new Subscription(webhookDeliveries, "webhooks-send", {
  handler: async ({ deliveryId }: DeliveryRequested): Promise<void> => {
    const delivery = await deliveryToSend(deliveryId);
    // Deleted with its webhook, sent already (a repeated message), or the webhook is off.
    if (delivery === null || delivery.status === "delivered" || !delivery.enabled) return;
    const outcome = await attempt(delivery.url, delivery.secret, delivery.body, delivery.id, delivery.type);
    const failures = await recordAttempt(delivery, outcome);
    if (outcome.error === null) return;
    if (failures >= webhooksConfig.disableAfterFailures) {
      await disableForFailures(delivery.webhook_id, failures, outcome.error);
      return; // disabled: no more tries
    }
    log.info("webhook delivery failed; pub/sub retries it", { deliveryId, error: outcome.error });
    throw new Error(`webhook delivery ${deliveryId} failed: ${outcome.error}`);
  },
  retryPolicy: { minBackoff: "1s", maxBackoff: "10m", maxRetries: 30 },
  maxConcurrency: 20,
});

async function attempt(url: string, secret: string, body: string, deliveryId: string, type: string): Promise<AttemptOutcome> {
  const started = performance.now();
  try {
    const target = await checkTarget(url, { ownBaseUrl: appMeta().apiBaseUrl, allowPrivate: webhooksConfig.allowPrivateTargets });
    const headers = {
      [signatureHeader]: signatureOf(secret, body, Math.floor(Date.now() / 1000)),
      "Webhook-Id": deliveryId,
      "Webhook-Event": type,
      "user-agent": "url-shortener-webhooks/1",
    };
    return await postTo(target, body, headers, webhooksConfig.timeoutMs);
  } catch (err) {
    if (!(err instanceof TargetRefused)) throw err;
    return { statusCode: null, error: err.message, durationMs: Math.round(performance.now() - started) };
  }
}
