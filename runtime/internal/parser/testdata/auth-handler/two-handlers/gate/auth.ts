import { Gateway, type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";

interface Params {
  authorization: Header<"Authorization">;
}

export const first = authHandler(async (p: Params): Promise<{ userID: string } | null> => ({ userID: p.authorization }));

export const gateway = new Gateway({ authHandler: first });
