import { api } from "encore.dev/api";

export const list = api({ method: "GET", path: "/a/users" }, async (): Promise<void> => {});
