import { Gateway, type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";

interface AuthParams {
  authorization: Header<"Authorization">;
  session: string;
}

export const auth = authHandler<AuthParams, { userID: string }>(async () => null);

export const gateway = new Gateway({ authHandler: auth });
