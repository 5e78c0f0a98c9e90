import { api } from "encore.dev/api";

/**
 * The web front end at /: index.html at /, its assets under /_app/. A fallback route
 * ("!path"), tried only when no other route matches, so GET /<code> still resolves a
 * short link and every API path keeps its endpoint; other methods on unknown paths still
 * get Encore's JSON 404. The page routes are in the URL's hash, so the server never needs
 * to know them. A path with no file gets not-found.html, which also says what to run
 * when the front end has not been built (frontend/dist empty). It looks like the page
 * GET /:code shows a browser for a code with no link (url/answer-pages/), whose style it
 * carries to the character, so a mistyped link looks the same whichever route answers it.
 *
 * Headers, on every page and asset (and not-found.html):
 * - Content-Security-Policy: scripts, styles and API calls from this origin only; no inline
 *   script (Vite's build emits none), and the one inline style is not-found.html's, allowed
 *   by its hash (test/web.http.test.ts fails when a page's inline code has no hash here).
 *   Images from this origin, any https one and data: URLs: the QR codes come from the
 *   object store's public URL, which is this origin with the local provider but S3's or a
 *   CDN's (OBJECTS_PUBLIC_BASE_URL) otherwise, and a header written here cannot name it;
 *   both pages' icon is "data:," (none, so the browser does not ask for /favicon.ico,
 *   which the short-link route answers). An image runs no code. frame-ancestors 'none' and X-Frame-Options: no page may frame
 *   this one (clickjacking the sign-up or shorten forms).
 * - Referrer-Policy: no-referrer: the sites a visitor goes to from here (a stats page's
 *   original URL) learn nothing of where they came from.
 * - X-Content-Type-Options: nosniff: a file is only ever what its Content-Type says.
 */
export const assets = api.static({
  expose: true,
  path: "/!path",
  dir: "../frontend/dist",
  notFound: "./not-found.html",
  notFoundStatus: 404,
  headers: {
    "Content-Security-Policy":
      "default-src 'none'; script-src 'self'; style-src 'self' 'sha256-myX57D//XjW7tewhVqlopeX5K/vmuscmMt94XXoOxqE='; img-src 'self' https: data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
  },
});
