import { api, APIError } from "encore.dev/api";
import { getAuthData } from "~encore/auth";

export interface Me {
  userID: string;
  role: string;
}

/** The caller, as the auth handler identified them. */
export const me = api({ expose: true, auth: true, method: "GET", path: "/me" }, async (): Promise<Me> => {
  // Set whenever the call came through the gateway; a direct in-process call may carry none.
  const data = getAuthData();
  if (!data) throw APIError.unauthenticated("no caller");
  return { userID: data.userID, role: data.role };
});

export interface Stats {
  users: number;
}

/** Figures only an admin may see. */
export const adminStats = api(
  { expose: true, auth: true, method: "GET", path: "/admin/stats" },
  async (): Promise<Stats> => {
    const data = getAuthData();
    if (!data) throw APIError.unauthenticated("no caller");
    if (data.role !== "admin") throw APIError.permissionDenied("admins only");
    return { users: 2 };
  },
);

export interface Status {
  ok: boolean;
  /** Who called, when the request carried a valid token. */
  caller?: string;
}

/** Open to anyone; a valid token, when sent, is still recognised. */
export const status = api({ expose: true, method: "GET", path: "/status" }, async (): Promise<Status> => {
  const data = getAuthData();
  return data ? { ok: true, caller: data.userID } : { ok: true };
});
