// What a click analytics read answers, whatever it sums (a link's rows, a tag's or a domain's
// links', a workspace's own): GET /:code/analytics, GET /me/clicks and the others share it.

export interface ClickCounts {
  humans: number;
  bots: number;
}

export interface SeriesPoint extends ClickCounts {
  /** The bucket's start: a local midnight in the request's time zone for days, the hour for hours. */
  start: string;
}

export interface ValueCount extends ClickCounts {
  value: string;
}

export interface Breakdown {
  /** At most 10 values, most clicks (humans and bots) first, then by value. */
  top: ValueCount[];
  /** Every other value, summed. */
  other: ClickCounts;
}

export interface ClickAnalytics {
  totals: { all: number; humans: number; bots: number };
  series: SeriesPoint[];
  referrers: Breakdown;
  countries: Breakdown;
  browsers: Breakdown;
  os: Breakdown;
  devices: Breakdown;
  /**
   * Per targeting rule (its id as the link's rules list it, every rule that sent clicks);
   * `other`: the clicks no rule sent, which went to the link's own URL.
   */
  rules: Breakdown;
}

/** Values listed per breakdown. */
export const topValues = 10;
/** A link has at most 20 rules (link-rules/redirect-rules.ts): each is listed. */
export const topRules = 20;
