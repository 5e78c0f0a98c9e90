import { api } from "encore.dev/api";

export const ping = api({ expose: true, method: "GET", path: "/ping" }, async (): Promise<{ ok: boolean }> => ({ ok: true }));
