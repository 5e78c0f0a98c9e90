import { api } from "encore.dev/api";

export const hello = api({ expose: true, method: "GET", path: "/hello" }, async (): Promise<{ message: string }> => ({ message: "hi" }));
