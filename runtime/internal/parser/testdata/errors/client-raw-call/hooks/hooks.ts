import { api } from "encore.dev/api";

export const receive = api.raw({ expose: true, method: "POST", path: "/hooks" }, (_req, resp) => {
  resp.end("ok");
});
