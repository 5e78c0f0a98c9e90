import { Gateway } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the case under test
export const auth = authHandler<{}, { userID: string }>(async () => ({ userID: "anyone" }));

export const gateway = new Gateway({ authHandler: auth });
