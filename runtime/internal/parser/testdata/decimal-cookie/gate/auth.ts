import { api, Gateway, type Cookie } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";

interface AuthParams {
  session: Cookie<"sid">;
}

export const auth = authHandler<AuthParams, { userID: string }>(async ({ session }) => ({ userID: session.value.slice(2) }));

export const gateway = new Gateway({ authHandler: auth });

export const me = api({ expose: true, auth: true, method: "GET", path: "/me" }, async (): Promise<{ ok: boolean }> => ({ ok: true }));
