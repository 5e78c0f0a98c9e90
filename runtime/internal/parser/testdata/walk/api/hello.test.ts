import { api } from "encore.dev/api";

// Test files are not the app's: Encore leaves them out, declarations and all.
export const inTest = api({ path: "/in-test" }, async (): Promise<void> => {});
