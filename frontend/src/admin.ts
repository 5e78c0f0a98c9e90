import { useEffect, useState } from "preact/hooks";
import { client } from "./api";
import type { Session } from "./session";

// Whether the signed-in account may use the admin page: the server says (GET /me), for
// ADMIN_EMAILS is the server's to know. Asked once per login token.
const known = new Map<string, boolean>();

export function useIsAdmin(session: Session | null): boolean {
  const token = session?.token;
  const [admin, setAdmin] = useState(() => (token ? (known.get(token) ?? false) : false));
  useEffect(() => {
    if (!token) return setAdmin(false);
    if (known.has(token)) return setAdmin(known.get(token)!);
    let current = true;
    client.auth.me().then(
      (me) => {
        known.set(token, me.admin);
        if (current) setAdmin(me.admin);
      },
      () => current && setAdmin(false),
    );
    return () => {
      current = false;
    };
  }, [token]);
  return admin;
}
