import { api } from "encore.dev/api";

export const sweep = api({ expose: false }, async (): Promise<void> => {});
