import { APIError, Gateway, type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";
import { ownerOf, type Role } from "./tokens";

interface AuthParams {
  authorization: Header<"Authorization">;
}

/** What auth: true endpoints learn of their caller, through getAuthData(). */
export interface AuthData {
  userID: string;
  role: Role;
}

/** Accepts `Authorization: Bearer <token>` with a known token; anything else is unauthenticated. */
export const auth = authHandler<AuthParams, AuthData>(async ({ authorization }) => {
  const token = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
  const owner = token ? ownerOf(token) : null;
  if (!owner) throw APIError.unauthenticated("invalid or missing bearer token");
  return owner;
});

export const gateway = new Gateway({ authHandler: auth });
