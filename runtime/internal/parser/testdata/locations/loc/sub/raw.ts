import * as encore from "encore.dev/api";

export const hook = encore.api.raw({ expose: true, path: "/hook" }, (req, res) => {
  void req;
  res.end();
});

export const assets = encore.api.static({
  expose: true,
  path: "/static/*path",
  dir: "../public",
  notFound: "../public/404.html",
  notFoundStatus: 404,
  headers: { "Cache-Control": "no-cache" },
});
