/**
 * The first path segment of every fixed route a deployment serves: the app's endpoints,
 * and what the self-host runtime adds (/healthz, /livez, /objects, /__encore, /metrics). A short code equal
 * to one would be shadowed by that route (GET /orders answers the orders list, never a
 * link), so none is handed out. Listed by hand because Encore gives app code no route
 * table; test/route-segments.test.ts compares it with the routes the parser reads, so a
 * route added without a line here fails the tests.
 */
export const routeFirstSegments: ReadonlySet<string> = new Set([
  ".well-known",
  "__encore",
  "admin",
  "analytics",
  "analytics.compactWorkspaceClicks",
  "analytics.dailyReport",
  "analytics.rollupClickAnalytics",
  "api",
  "auth",
  "checkout",
  "email-verification",
  "healthz",
  "internal",
  "invitations",
  "links",
  "livez",
  "me",
  "metrics",
  "objects",
  "openapi.json",
  "orders",
  "password-reset",
  "products",
  "reports",
  "robots.txt",
  "shorten",
  "url",
  "url.cleanupStaleUrls",
  "links.sweepOutbox",
  "users",
  "workspaces",
]);
