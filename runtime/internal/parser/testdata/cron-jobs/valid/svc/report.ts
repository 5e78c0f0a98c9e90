import { api } from "encore.dev/api";

export const daily = api({ expose: true, method: "POST", path: "/report" }, async (): Promise<{ sent: number }> => ({ sent: 1 }));
