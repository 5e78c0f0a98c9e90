import { api } from "encore.dev/api";

export const purge = api({}, async (): Promise<void> => {});
