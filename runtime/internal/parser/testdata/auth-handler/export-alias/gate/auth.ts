import { Gateway, type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";

const auth = authHandler<{ authorization: Header<"Authorization"> }, { userID: string }>(async () => null);

export { auth as verify };
export const gateway = new Gateway({ authHandler: auth });
