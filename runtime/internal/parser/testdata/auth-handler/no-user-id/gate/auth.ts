import { Gateway, type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";

interface Session {
  id: string;
  email: string;
}

// @ts-expect-error -- the real package's type refuses it too; the parser must say why.
export const auth = authHandler<{ authorization: Header<"Authorization"> }, Session>(async () => null);

export const gateway = new Gateway({ authHandler: auth });
