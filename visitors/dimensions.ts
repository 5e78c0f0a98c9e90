// What a click records for its link's analytics, and how it travels from the lookup
// that answered it to the rows that count it.

/** The breakdowns a link's analytics report, beside the series (dimension "all"). */
export const breakdownDimensions = ["referrer", "country", "browser", "os", "device", "rule"] as const;
export type BreakdownDimension = (typeof breakdownDimensions)[number];
export type Dimension = "all" | BreakdownDimension;

/** What is known of one click, with nothing personal: no address, no full user agent. */
export interface ClickDetails {
  /** The hour it happened in, as hours since 1970-01-01T00:00Z. */
  readonly hour: number;
  readonly bot: boolean;
  readonly referrer: string;
  readonly country: string;
  readonly browser: string;
  readonly os: string;
  readonly device: string;
  /** The id of the targeting rule that sent it; absent when none did (the link's own URL). */
  readonly rule?: string;
}

/** The value recorded when nothing is known, in every breakdown. */
export const unknown = "unknown";

const separator = "\t";

/**
 * A click's details as text: the click counter keeps counts per code and details in
 * one map, and its journal on disk, so the details must be a string that survives a
 * restart. Values never hold the separator (they are cleaned by `cleanValue`). What
 * the User-Agent tells comes last, so the lookup's hot path can join a prepared agent
 * part (`agentPart`) to the rest.
 */
export function encodeDetails(d: ClickDetails): string {
  return withRule(joinDetails(d.hour, d.referrer, d.country, agentPart(d.bot, d.browser, d.os, d.device)), d.rule);
}

/**
 * A click's details with the targeting rule that sent it, last: a click no rule sent keeps
 * the details as they were (no new string on the plain link's path). Rule ids never hold
 * the separator (link-rules/redirect-rules.ts ruleIdPattern).
 */
export function withRule(details: string, rule: string | undefined): string {
  return rule ? `${details}${separator}${rule}` : details;
}

/** The User-Agent's part of a click's details text. */
export function agentPart(bot: boolean, browser: string, os: string, device: string): string {
  return [bot ? "b" : "h", browser, os, device].join(separator);
}

/** A click's details text from its hour, referrer, country and agent part. */
export function joinDetails(hour: number, referrer: string, country: string, agent: string): string {
  return `${hour}${separator}${referrer}${separator}${country}${separator}${agent}`;
}

/**
 * The details `encodeDetails` made; text from anything else (a journal written before
 * clicks had details) reads as a human's click with every value unknown, in `nowHour`,
 * so it is still counted once in every dimension.
 */
export function decodeDetails(text: string | undefined, nowHour: number): ClickDetails {
  const parts = text?.split(separator);
  const hour = Number(parts?.[0]);
  if ((parts?.length !== 7 && parts?.length !== 8) || !Number.isSafeInteger(hour)) {
    return { hour: nowHour, bot: false, referrer: unknown, country: unknown, browser: unknown, os: unknown, device: unknown };
  }
  const d = { hour, referrer: parts[1], country: parts[2], bot: parts[3] === "b", browser: parts[4], os: parts[5], device: parts[6] };
  return parts[7] ? { ...d, rule: parts[7] } : d;
}

/** The hour `ms` (milliseconds since 1970) falls in. */
export function hourOf(ms: number): number {
  return Math.floor(ms / 3_600_000);
}

/** Longest value kept: a header is the client's to write, and must not decide our storage. */
const longestValue = 100;

/** A value as stored: single-line, no separator, short; empty becomes unknown. */
export function cleanValue(value: string | undefined): string {
  if (!value) return unknown;
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, " ").trim().slice(0, longestValue);
  return clean === "" ? unknown : clean;
}
