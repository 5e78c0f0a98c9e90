import { api as endpoint } from "encore.dev/api";

export const ping = endpoint({ expose: true, method: "GET", path: "/ping" }, async () => {});
