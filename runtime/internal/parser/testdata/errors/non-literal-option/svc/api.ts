import { api } from "encore.dev/api";

const base = "/things";

export const things = api({ method: "GET", path: base }, async (): Promise<void> => {});
