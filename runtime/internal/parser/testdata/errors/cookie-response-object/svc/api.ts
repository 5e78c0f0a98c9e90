import { api, type Cookie } from "encore.dev/api";

interface Session {
  id: string;
  prefs: Cookie<{ theme: string }, "prefs">;
}

// A cookie carries text: an object value has no cookie form.
export const login = api({ expose: true, method: "POST", path: "/login" }, async (): Promise<Session> => ({ id: "1", prefs: { value: { theme: "dark" } } }));
