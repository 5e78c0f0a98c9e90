import { api } from "encore.dev/api";

export const ping = api({ method: "GET", path: "/ping" }, async (): Promise<void> => {});
