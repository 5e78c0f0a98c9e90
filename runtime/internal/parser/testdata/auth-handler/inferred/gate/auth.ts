import { APIError, Gateway, type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";

interface Params {
  key: Header<"X-Api-Key">;
}

// Typed by the function alone: no type arguments.
export const auth = authHandler(async ({ key }: Params) => {
  if (key !== "k") throw APIError.unauthenticated("bad key");
  return { userID: "service-account", scopes: ["read"] };
});

export const gateway = new Gateway({ authHandler: auth });
