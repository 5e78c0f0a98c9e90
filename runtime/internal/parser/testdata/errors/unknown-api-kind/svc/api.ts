import { api } from "encore.dev/api";

// @ts-expect-error: encore.dev/api has no api.frontend
export const app = api.frontend({ path: "/app" });
