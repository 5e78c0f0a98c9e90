import { api } from "encore.dev/api";

export const page = api.raw({ expose: true, path: "/page" }, (_req, resp) => {
  resp.end("<p>hello</p>");
});
