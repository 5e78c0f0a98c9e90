// Which links a public report may name with their URL (the analytics service's daily
// report): a password hides its link's target and audience from all but its owner and
// whoever has the password, and an owned link's URL is its owner's to share, so only an
// anonymous link without a password, neither deleted nor disabled, is ever named. Used as
// SQL conditions, constant text never built from input.

/** The condition on the urls row aliased `u` that it may be named in a report at all. */
export function reportable(u: string): string {
  return `${u}.created_by IS NULL AND ${u}.password_hash IS NULL AND ${u}.deleted_at IS NULL AND ${u}.disabled_at IS NULL`;
}

/** reportable, and live now: it still redirects (not expired, its click budget not spent). */
export function reportableAndLive(u: string): string {
  return `${reportable(u)} AND (${u}.expires_at IS NULL OR ${u}.expires_at > now()) AND (${u}.max_clicks IS NULL OR ${u}.clicks < ${u}.max_clicks)`;
}
