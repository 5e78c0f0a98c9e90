import { api, type Header } from "encore.dev/api";

interface SignIn {
  cookie?: Header<"Cookie">;
}

interface Session {
  token: string;
  /** Sent as a Set-Cookie header, not in the body. */
  sessionCookie?: Header<"Set-Cookie">;
  requestId: Header<"X-Request-Ref">;
}

export const signIn = api({ expose: true, method: "POST", path: "/sign-in" }, async ({ cookie }: SignIn): Promise<Session> => ({
  token: cookie ?? "none",
  sessionCookie: "sid=abc; HttpOnly; Path=/",
  requestId: "r1",
}));
