// Limits on drawing QR images (the links service's GET /links/:code/qr), per client address.
import { limitSetting, secondsSetting } from "./limiter/env";
import { Limiter, refusedPast } from "./limiter/limiter";
import type { RedisOption } from "./limiter/redis";

type Env = Readonly<Record<string, string | undefined>>;

export interface QrImageLimitsConfig {
  /** Images an address may have drawn per window; null: no limit. */
  readonly perAddress: number | null;
  readonly windowSeconds: number;
}

/**
 * Defaults: 120 renders per address a minute. The web page's QR preview draws one image
 * each time its options change, a person a few a minute; a script asking for every size
 * and colour gets 2 a second. Only renders count: an image among the recent renders is
 * sent as it is, at the cost of a lookup, so a page showing one QR code to many visitors
 * behind one address is never refused.
 */
export function parseQrImageLimits(env: Env): QrImageLimitsConfig {
  return Object.freeze({
    perAddress: limitSetting(env, "QR_IMAGE_LIMIT_PER_ADDRESS", 120),
    windowSeconds: secondsSetting(env, "QR_IMAGE_LIMIT_WINDOW_SECONDS", 60, 24 * 3600),
  });
}

/** The counter of QR renders; one per process. */
export class QrImageLimits {
  readonly config: QrImageLimitsConfig;
  readonly #byAddress: Limiter | null;

  constructor(config: QrImageLimitsConfig, redis?: RedisOption) {
    this.config = config;
    this.#byAddress =
      config.perAddress === null ? null : new Limiter({ name: "qr-images:address", points: config.perAddress, durationSeconds: config.windowSeconds, redis });
  }

  /** Counts one render for `address` (an address key); 429 resource_exhausted past the limit. No address is not counted. */
  async count(address: string | undefined): Promise<void> {
    const byAddress = this.#byAddress;
    if (address === undefined || byAddress === null) return;
    await refusedPast("too many QR images drawn for this address", () => byAddress.consume(address));
  }
}

/** The app's QR image limits, from the environment at start. */
export const qrImageLimits = new QrImageLimits(parseQrImageLimits(process.env));
