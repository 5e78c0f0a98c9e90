import { api, type Cookie } from "encore.dev/api";

export interface Preferences {
  theme: string;
  /** Visits counted in the visitor's cookie. */
  visits: number;
}

/** The visitor's preferences, read from their cookies (a default when they have none). */
export const getPreferences = api(
  { expose: true, method: "GET", path: "/prefs" },
  async ({ theme, visits }: { theme?: Cookie<"theme">; visits?: Cookie<number, "visits"> }): Promise<Preferences> => {
    return { theme: theme?.value ?? "light", visits: visits?.value ?? 0 };
  },
);

export interface SavedTheme {
  theme: string;
  /** Sent as Set-Cookie, not in the body. */
  themeCookie: Cookie<"theme">;
  visitsCookie: Cookie<number, "visits">;
}

/** Saves the theme in a cookie for a year, and counts the visit. */
export const saveTheme = api(
  { expose: true, method: "POST", path: "/prefs/theme" },
  async ({ theme, visits }: { theme: "light" | "dark"; visits?: Cookie<number, "visits"> }): Promise<SavedTheme> => {
    return {
      theme,
      themeCookie: { value: theme, path: "/", httpOnly: true, sameSite: "Lax", maxAge: 365 * 24 * 3600 },
      visitsCookie: { value: (visits?.value ?? 0) + 1, path: "/" },
    };
  },
);
