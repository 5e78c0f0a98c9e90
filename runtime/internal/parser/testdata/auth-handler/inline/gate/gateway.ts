import { Gateway, type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";

interface Params {
  authorization: Header<"Authorization">;
}

export const gateway = new Gateway({
  authHandler: authHandler<Params, { userID: string }>(async ({ authorization }) => ({ userID: authorization })),
});
