// Limits on reporting links (the links service's POST /reports), per client address.
import { limitSetting, secondsSetting } from "./limiter/env";
import { Limiter, refusedPast } from "./limiter/limiter";
import type { RedisOption } from "./limiter/redis";

type Env = Readonly<Record<string, string | undefined>>;

export interface ReportLimitsConfig {
  /** New reports an address may make per window; null: no limit. */
  readonly perAddress: number | null;
  readonly windowSeconds: number;
}

/**
 * Defaults: 10 reports per address in an hour. A visitor reports the one or two links that
 * wronged them; a script flooding the queue with reports gets 10 an hour. A repeat of an
 * open report of the same link is not counted (it adds nothing to the queue).
 */
export function parseReportLimits(env: Env): ReportLimitsConfig {
  return Object.freeze({
    perAddress: limitSetting(env, "REPORT_LIMIT_PER_ADDRESS", 10),
    windowSeconds: secondsSetting(env, "REPORT_LIMIT_WINDOW_SECONDS", 3600, 7 * 24 * 3600),
  });
}

/** The counter of reports; one per process. */
export class ReportLimits {
  readonly config: ReportLimitsConfig;
  readonly #byAddress: Limiter | null;

  constructor(config: ReportLimitsConfig, redis?: RedisOption) {
    this.config = config;
    this.#byAddress =
      config.perAddress === null ? null : new Limiter({ name: "reports:address", points: config.perAddress, durationSeconds: config.windowSeconds, redis });
  }

  /** Counts one report from `address`; 429 resource_exhausted past the limit. No address (another service's call) is not counted. */
  async count(address: string | undefined): Promise<void> {
    const byAddress = this.#byAddress;
    if (address === undefined || byAddress === null) return;
    await refusedPast("too many reports from this address", () => byAddress.consume(address));
  }
}

/** The app's report limits, from the environment at start. */
export const reportLimits = new ReportLimits(parseReportLimits(process.env));
