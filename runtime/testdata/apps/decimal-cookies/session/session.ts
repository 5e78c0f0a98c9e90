import { api, type Cookie } from "encore.dev/api";
import { getAuthData } from "~encore/auth";

export interface LoginRequest {
  user: string;
}

export interface LoginResponse {
  user: string;
  /** Sent as a Set-Cookie header, not in the body. */
  session: Cookie<"session">;
}

export const login = api({ expose: true, method: "POST", path: "/login" }, async ({ user }: LoginRequest): Promise<LoginResponse> => ({
  user,
  session: { value: `s-${user}`, httpOnly: true, sameSite: "Lax", path: "/", maxAge: 3600 },
}));

export interface PrefsRequest {
  theme: Cookie<"theme">;
  visits?: Cookie<number, "visits">;
}

export const prefs = api({ expose: true, method: "GET", path: "/prefs" }, async (req: PrefsRequest): Promise<{ theme: string; visits: number }> => ({
  theme: req.theme.value,
  visits: req.visits?.value ?? 0,
}));

export const whoami = api({ expose: true, auth: true, method: "GET", path: "/whoami" }, async (): Promise<{ userID: string }> => ({
  userID: getAuthData()!.userID,
}));
