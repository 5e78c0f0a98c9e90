import { api } from "encore.dev/api";

// Encore leaves folders starting with "." out, declarations and all.
export const story = api({ path: "/story" }, async (): Promise<void> => {});
