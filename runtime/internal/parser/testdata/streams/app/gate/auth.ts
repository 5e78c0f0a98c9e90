import { APIError, Gateway, type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";

interface AuthParams {
  authorization?: Header<"Authorization">;
}

interface AuthData {
  userID: string;
}

export const auth = authHandler<AuthParams, AuthData>(async ({ authorization }) => {
  if (authorization === "Bearer alice") return { userID: "alice" };
  throw APIError.unauthenticated("invalid token");
});

export const gateway = new Gateway({ authHandler: auth });
