import { api, type Cookie } from "encore.dev/api";

export interface Prefs {
  theme: Cookie<"theme">;
  visits?: Cookie<number, "visits">;
  since?: Cookie<Date, "since">;
  q?: string;
}

export const prefs = api({ expose: true, method: "GET", path: "/prefs" }, async (p: Prefs): Promise<{ theme: string; visits: number }> => ({
  theme: p.theme.value,
  visits: p.visits?.value ?? 0,
}));

export interface Login {
  user: string;
}

export interface Session {
  user: string;
  session: Cookie<"sid">;
  theme?: Cookie<"theme">;
}

export const login = api({ expose: true, method: "POST", path: "/login" }, async (p: Login): Promise<Session> => ({
  user: p.user,
  session: { value: `s-${p.user}`, httpOnly: true, path: "/" },
}));
