import { api } from "encore.dev/api";

export const tick = api({}, async (): Promise<void> => {});

