import { api, APIError, Gateway, type Header, type Query } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { authHandler } from "encore.dev/auth";

export interface AuthParams {
  /** `Bearer <token>` */
  authorization?: Header<"Authorization">;
  apiKey?: Query<"api_key">;
}

interface AuthData {
  userID: string;
}

export const auth = authHandler<AuthParams, AuthData>(async ({ authorization, apiKey }) => {
  if (authorization === "Bearer good" || apiKey === "key") return { userID: "alice" };
  throw APIError.unauthenticated("bad credentials");
});

export const gateway = new Gateway({ authHandler: auth });

export const whoami = api({ expose: true, auth: true, method: "GET", path: "/whoami" }, async (): Promise<{ userID: string }> => ({
  userID: getAuthData()?.userID ?? "",
}));
