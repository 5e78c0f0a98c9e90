import { APIError, type Header, type Query } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";

type Token = Query<"access_token">;

export interface AuthParams {
  /** `Bearer <token>` */
  authorization?: Header<"Authorization">;
  token?: Token;
  version?: Header<number, "X-Auth-Version">;
}

export interface AuthData {
  userID: string;
  email: string;
  expires?: Date;
}

export const auth = authHandler<AuthParams, AuthData>(async ({ authorization, token }) => {
  if (!authorization && !token) throw APIError.unauthenticated("no token");
  return { userID: "u1", email: "u1@example.com" };
});
