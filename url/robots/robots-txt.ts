/**
 * The app's own paths of one segment (its endpoints and the runtime's, as
 * links/shortening/route-segments.ts lists their first segments): a short link is one
 * segment too, so these are named one by one. test/robots-txt.test.ts checks every fixed
 * route against the rules.
 */
const ownSegments = [
  "__encore", "admin", "analytics", "api", "auth", "checkout", "email-verification", "healthz", "internal",
  "invitations", "links", "livez", "me", "metrics", "objects", "openapi.json", "orders", "password-reset",
  "products", "reports", "shorten", "url", "users", "workspaces",
  // The internal endpoints without a path: the scheduled jobs', which their runner calls, and
  // the workspaces' fold, which the url service calls.
  "analytics.compactWorkspaceClicks", "analytics.dailyReport", "analytics.rollupClickAnalytics", "links.sweepOutbox",
  "url.cleanupStaleUrls",
];

/**
 * Short links may be crawled: a crawler that may not fetch one never sees its X-Robots-Tag
 * (noindex unless the link allows indexing), and may list the bare address anyway. What is
 * not content may not: every path of more than one segment (the API, a link's stats and
 * analytics, the front end's assets under /_app/) and the app's paths of one segment, each
 * exactly (`$`), so that a code beginning like one (/linksale) stays allowed. The front
 * end's start page (/) stays allowed: it is the instance's public face. `*` and `$` are
 * RFC 9309's and the big crawlers'; one that ignores them reads the prefix rules, which
 * keep it off less, never more.
 */
const defaultRobotsTxt = [
  "User-agent: *",
  "Disallow: /*/",
  ...ownSegments.map((segment) => `Disallow: /${segment}$`),
  "Allow: /",
  "",
].join("\n");

/**
 * The robots.txt answered to a request for `host` (its Host header, lower case, no port;
 * undefined when none was sent). Every host gets the same rules for now; a host of its
 * own (a custom domain) may get its own here.
 */
export function robotsTxtFor(host: string | undefined): string {
  void host;
  return defaultRobotsTxt;
}
