// The links service's tunables, read from the environment once, validated and frozen.
import { onOffSetting } from "../limits/limiter/env";

export interface LinksConfig {
  /** The QR-code extension: each shorten stores a PNG of its short link and answers with its URL. */
  readonly qrCodes: boolean;
  /** Whether shortening needs a signed-in user (a valid bearer token); anonymous otherwise. */
  readonly requireLoginToShorten: boolean;
  /**
   * TRUST_PROXY, as the runtime reads it: GET /links/:code/qr, a raw endpoint, finds the
   * client's address for its limit itself, by the rule the runtime applies to typed ones.
   */
  readonly trustProxy: boolean;
}

export function parseLinksConfig(env: Readonly<Record<string, string | undefined>>): LinksConfig {
  return Object.freeze({
    // Off unless asked for: QR codes are an optional extension, with a bucket to run.
    qrCodes: onOffSetting(env, "QR_CODES", false),
    // Off: anonymous shortens are allowed unless an operator asks for sign-in.
    requireLoginToShorten: onOffSetting(env, "REQUIRE_LOGIN_TO_SHORTEN", false),
    trustProxy: onOffSetting(env, "TRUST_PROXY", false),
  });
}

export const linksConfig: LinksConfig = parseLinksConfig(process.env);
