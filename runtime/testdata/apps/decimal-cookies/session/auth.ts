import { APIError, Gateway, type Cookie } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";

interface AuthParams {
  session: Cookie<"session">;
}

// The session cookie login sets: "s-<user>" (a demo; a real app looks the session up).
export const auth = authHandler<AuthParams, { userID: string }>(async ({ session }) => {
  if (!session.value.startsWith("s-")) throw APIError.unauthenticated("unknown session");
  return { userID: session.value.slice(2) };
});

export const gateway = new Gateway({ authHandler: auth });
