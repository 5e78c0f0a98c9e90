import { api } from "encore.dev/api";

// The front end under every path no other route takes.
export const assets = api.static({ expose: true, path: "/!path", dir: "./dist", notFound: "./dist/index.html", notFoundStatus: 200 });

// A one-segment route and a wildcard beside it: neither clashes with the fallback.
export const resolve = api.raw({ expose: true, method: "GET", path: "/:code" }, (_req, res) => {
  res.end();
});

export const files = api.raw({ expose: true, method: "GET", path: "/*rest" }, (_req, res) => {
  res.end();
});
