import { Gateway, type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";

new Gateway({
  authHandler: authHandler<{ authorization: Header<"Authorization"> }, { userID: string }>(async () => null),
});
