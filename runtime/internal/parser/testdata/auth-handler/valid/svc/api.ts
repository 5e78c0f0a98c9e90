import { api } from "encore.dev/api";

export const me = api({ expose: true, auth: true, method: "GET", path: "/me" }, async (): Promise<{ ok: boolean }> => ({ ok: true }));
