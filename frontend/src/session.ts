import { useEffect, useState } from "preact/hooks";

/** The signed-in user's token, kept in localStorage so a reload stays signed in. */
export interface Session {
  token: string;
  email: string;
  expiresAt: string;
}

const key = "url-shortener.session";
const listeners = new Set<() => void>();

export function currentSession(): Session | null {
  const raw = localStorage.getItem(key);
  if (!raw) return null;
  try {
    const session = JSON.parse(raw) as Session;
    // An expired token would only earn a 401: treat it as signed out at once.
    if (Date.parse(session.expiresAt) > Date.now()) return session;
  } catch {
    // Not ours or corrupted: dropped below.
  }
  localStorage.removeItem(key);
  return null;
}

export function signIn(session: Session): void {
  localStorage.setItem(key, JSON.stringify(session));
  listeners.forEach((notify) => notify());
}

export function signOut(): void {
  localStorage.removeItem(key);
  listeners.forEach((notify) => notify());
}

export function useSession(): Session | null {
  const [session, setSession] = useState(currentSession);
  useEffect(() => {
    const update = () => setSession(currentSession());
    listeners.add(update);
    // Another tab signing in or out changes the same storage.
    addEventListener("storage", update);
    return () => {
      listeners.delete(update);
      removeEventListener("storage", update);
    };
  }, []);
  return session;
}
