// The settings of fetching a link's preview from its target page (fetchPreview), read from the
// environment once, validated and frozen.
import { onOffSetting, wholeNumberSetting } from "../../limits/limiter/env";
import type { FetchLimits } from "../../outbound/fetch-page";

export interface PreviewConfig extends FetchLimits {
  /** Whether a preview may be fetched from loopback, private and other non-public addresses (tests, an intranet). */
  readonly allowPrivateTargets: boolean;
}

export function parsePreviewConfig(env: Readonly<Record<string, string | undefined>>): PreviewConfig {
  return Object.freeze({
    // Off: the page is fetched from the server, at an address a user chose; it must not reach inside.
    allowPrivateTargets: onOffSetting(env, "PREVIEW_ALLOW_PRIVATE_TARGETS", false),
    // 5 s: the request that asked for it waits for it.
    timeoutMs: wholeNumberSetting(env, "PREVIEW_FETCH_TIMEOUT_SECONDS", 5, 1, 30) * 1000,
    // 512 KiB: a page's head, where its meta tags are, is within its first few KiB.
    maxBytes: wholeNumberSetting(env, "PREVIEW_FETCH_MAX_KIB", 512, 16, 10_240) * 1024,
    // 3: a moved page and its http → https hop, each checked again.
    maxRedirects: wholeNumberSetting(env, "PREVIEW_FETCH_MAX_REDIRECTS", 3, 0, 10),
  });
}

export const previewConfig: PreviewConfig = parsePreviewConfig(process.env);
