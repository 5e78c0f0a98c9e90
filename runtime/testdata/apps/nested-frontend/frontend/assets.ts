import { api } from "encore.dev/api";

/**
 * Serves the built front end. Any path no other endpoint takes falls back to the
 * page itself, as a single-page app wants.
 */
export const assets = api.static({
  expose: true,
  path: "/!path",
  dir: "./dist",
  notFound: "./dist/index.html",
  notFoundStatus: 200,
});
