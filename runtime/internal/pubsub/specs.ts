import { parseDuration } from "../duration/duration.ts";
import type { SubscriptionSpec } from "./provider.ts";

/** What `new Subscription(topic, name, cfg)` may say; the rest is Encore's defaults. */
export interface SubscriptionOptions {
  readonly maxConcurrency?: number;
  readonly ackDeadline?: string;
  readonly messageRetention?: string;
  readonly retryPolicy?: { readonly minBackoff?: string; readonly maxBackoff?: string; readonly maxRetries?: number };
}

// Encore's documented defaults.
const defaults = { ackDeadline: "30s", messageRetention: "168h", minBackoff: "10s", maxBackoff: "10m", maxRetries: 100 };
/** Per instance, when the app does not say. */
const defaultMaxConcurrency = 100;

/** Applies defaults and checks the values; errors name the subscription and the setting. */
export function subscriptionSpec(topic: string, name: string, cfg: SubscriptionOptions): SubscriptionSpec {
  const where = `subscription "${name}" on topic "${topic}"`;
  const retry = cfg.retryPolicy ?? {};
  const ackDeadlineMs = parseDuration(cfg.ackDeadline ?? defaults.ackDeadline, `${where}: ackDeadline`);
  if (ackDeadlineMs < 1000) throw new Error(`${where}: ackDeadline must be at least 1s, got "${cfg.ackDeadline}"`);
  const minBackoffMs = parseDuration(retry.minBackoff ?? defaults.minBackoff, `${where}: retryPolicy.minBackoff`);
  const maxBackoffMs = parseDuration(retry.maxBackoff ?? defaults.maxBackoff, `${where}: retryPolicy.maxBackoff`);
  if (maxBackoffMs < minBackoffMs) throw new Error(`${where}: retryPolicy.maxBackoff is shorter than minBackoff`);
  const maxRetries = retry.maxRetries;
  if (maxRetries !== undefined && !Number.isInteger(maxRetries)) {
    throw new Error(`${where}: retryPolicy.maxRetries must be a whole number`);
  }
  const maxConcurrency = cfg.maxConcurrency;
  if (maxConcurrency !== undefined && (!Number.isInteger(maxConcurrency) || maxConcurrency === 0)) {
    throw new Error(`${where}: maxConcurrency must be a whole number other than 0`);
  }
  return Object.freeze({
    topic,
    name,
    // Negative means no limit, as in Encore.
    maxConcurrency: maxConcurrency === undefined ? defaultMaxConcurrency : maxConcurrency < 0 ? Infinity : maxConcurrency,
    ackDeadlineMs,
    messageRetentionMs: parseDuration(cfg.messageRetention ?? defaults.messageRetention, `${where}: messageRetention`),
    minBackoffMs,
    maxBackoffMs,
    // 0 or unset: Encore's default; negative (pubsub.InfiniteRetries): never dead-letter.
    maxRetries: !maxRetries ? defaults.maxRetries : maxRetries < 0 ? Infinity : maxRetries,
  });
}
