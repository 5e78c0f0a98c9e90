import { api } from "encore.dev/api";

export const bar = api({ method: "POST" }, async (): Promise<void> => {});
