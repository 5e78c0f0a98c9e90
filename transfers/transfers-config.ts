// The transfers service's limits, read from the environment once, validated and frozen.
import { onOffSetting, wholeNumberSetting } from "../limits/limiter/env";

export interface TransfersConfig {
  /** Rows one import file may hold: a file with more is refused whole, before any is imported. */
  readonly importMaxRows: number;
  /** Bytes one import file may have: the upload is cut off past them (413). */
  readonly importMaxBytes: number;
  /** Whether a load balancer sets X-Forwarded-For (the uploader's address, for the limits on creating links). */
  readonly trustProxy: boolean;
}

export function parseTransfersConfig(env: Readonly<Record<string, string | undefined>>): TransfersConfig {
  return Object.freeze({
    // 100,000: a large account's links, imported in well under a minute.
    importMaxRows: wholeNumberSetting(env, "IMPORT_MAX_ROWS", 100_000, 1, 10_000_000),
    // 50 MiB: 100,000 rows of long URLs, titles and tags fit with room to spare.
    importMaxBytes: wholeNumberSetting(env, "IMPORT_MAX_BYTES", 50 * 1024 * 1024, 1024, 2 ** 40),
    trustProxy: onOffSetting(env, "TRUST_PROXY", false),
  });
}

export const transfersConfig: TransfersConfig = parseTransfersConfig(process.env);
