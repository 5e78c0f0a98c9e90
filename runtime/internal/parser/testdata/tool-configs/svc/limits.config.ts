// Named like a tool's configuration, but Encore code: parsed.
import { api } from "encore.dev/api";

export const limits = api({ expose: true, method: "GET", path: "/limits" }, async (): Promise<{ max: number }> => ({ max: 3 }));
