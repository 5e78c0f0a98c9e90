import { api } from "encore.dev/api";

// Encore leaves __tests__ folders out, declarations and all.
export const fake = api({ path: "/fake" }, async (): Promise<void> => {});
