import { api } from "encore.dev/api";

export const foo = api({ method: "POST" }, async (): Promise<void> => {});
