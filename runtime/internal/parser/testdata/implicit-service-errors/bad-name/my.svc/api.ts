import { api } from "encore.dev/api";

export const hello = api({ method: "GET", path: "/hello" }, async (): Promise<void> => {});
