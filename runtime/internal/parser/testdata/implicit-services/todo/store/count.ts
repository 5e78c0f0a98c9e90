import { api } from "encore.dev/api";

// In a subfolder of an implicit service: part of "todo", not a service "store".
export const count = api({ expose: true, method: "GET", path: "/todos/count" }, async (): Promise<{ count: number }> => ({ count: 0 }));
