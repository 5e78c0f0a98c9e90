/**
 * The platform a User-Agent names, as targeting rules ask for it: "ios" (iPhone, iPad,
 * iPod), "android", "desktop" (any other browser: every browser's agent starts with
 * "Mozilla/"), or undefined (no agent, a phone or tablet of another kind, a script such as
 * curl). A few substring checks, cheaper than a cache lookup of the full
 * classification (user-agents.ts): a rule's redirect must not wait on ua-parser-js. An
 * iPad asking for the desktop site says "Macintosh" and counts as desktop, as it does to
 * every server.
 */
export function platformOf(userAgent: string | undefined): "ios" | "android" | "desktop" | undefined {
  if (!userAgent) return undefined;
  if (userAgent.includes("iPhone") || userAgent.includes("iPad") || userAgent.includes("iPod")) return "ios";
  if (userAgent.includes("Android")) return "android";
  if (!userAgent.startsWith("Mozilla/") || userAgent.includes("Mobi") || userAgent.includes("Tablet")) return undefined;
  return "desktop";
}
