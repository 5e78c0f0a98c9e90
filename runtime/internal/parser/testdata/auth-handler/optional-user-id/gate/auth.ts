import { Gateway, type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";

interface Params {
  authorization: Header<"Authorization">;
}

export const auth = authHandler(async (_p: Params): Promise<{ userID?: string } | null> => null);

export const gateway = new Gateway({ authHandler: auth });
