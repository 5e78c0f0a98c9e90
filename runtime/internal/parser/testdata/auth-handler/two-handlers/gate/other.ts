import { type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";

export const second = authHandler<{ key: Header<"X-Key"> }, { userID: string }>(async ({ key }) => ({ userID: key }));
