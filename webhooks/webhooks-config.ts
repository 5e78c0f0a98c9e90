// The webhooks service's tunables, read from the environment once, validated and frozen.
import { onOffSetting, wholeNumberSetting } from "../limits/limiter/env";

export interface WebhooksConfig {
  /** Whether webhooks may target loopback, private and other non-public addresses (tests, an intranet). */
  readonly allowPrivateTargets: boolean;
  /** How long one delivery attempt may take, connecting included. */
  readonly timeoutMs: number;
  /** Failed attempts in a row after which a webhook is disabled and its owner told. */
  readonly disableAfterFailures: number;
}

export function parseWebhooksConfig(env: Readonly<Record<string, string | undefined>>): WebhooksConfig {
  return Object.freeze({
    // Off: a webhook sends a workspace's data to a URL of its choice, which must not reach inside.
    allowPrivateTargets: onOffSetting(env, "WEBHOOK_ALLOW_PRIVATE_TARGETS", false),
    // 5 s: a receiver should answer at once and do its work later.
    timeoutMs: wholeNumberSetting(env, "WEBHOOK_TIMEOUT_SECONDS", 5, 1, 30) * 1000,
    // 15: with the retry backoff (1 s doubling to 10 min) about an hour of failures of one delivery.
    disableAfterFailures: wholeNumberSetting(env, "WEBHOOK_DISABLE_AFTER_FAILURES", 15, 1, 1000),
  });
}

export const webhooksConfig: WebhooksConfig = parseWebhooksConfig(process.env);
