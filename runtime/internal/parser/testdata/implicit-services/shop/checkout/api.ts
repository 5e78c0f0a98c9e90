import { api } from "encore.dev/api";

export const pay = api({ method: "POST" }, async (): Promise<void> => {});
