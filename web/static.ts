import { api } from "encore.dev/api";

/**
 * The web front end at /: index.html at /, its assets under /_app/. A fallback route
 * ("!path"), tried only when no other route matches, so GET /<code> still resolves a
 * short link and every API path keeps its endpoint; other methods on unknown paths still
 * get Encore's JSON 404. The page routes are in the URL's hash, so the server never needs
 * to know them. A path with no file gets not-found.html, which also says what to run
 * when the front end has not been built (frontend/dist empty).
 */
export const assets = api.static({
  expose: true,
  path: "/!path",
  dir: "../frontend/dist",
  notFound: "./not-found.html",
  notFoundStatus: 404,
});
