import { useEffect, useState } from "preact/hooks";
import Client, { ErrCode, isAPIError } from "./client.gen";

/**
 * The signed-in user's login token, kept in localStorage so a reload, and every tab, share
 * it. The session behind it lasts longer: its refresh token is an HttpOnly cookie the page
 * never sees, which POST /auth/refresh trades for the next login token while the user is
 * active. A token that has expired still means "signed in" until a refresh is refused.
 */
export interface Session {
  token: string;
  email: string;
  expiresAt: string;
  /** When the page got the token (ms), to know its lifetime; absent in sessions stored before refreshes. */
  receivedAt?: number;
}

const key = "url-shortener.session";
const listeners = new Set<() => void>();

/** For the calls that are about the session itself: no token added, no refresh on a 401 (api.ts adds both to the others). */
const sessionClient = new Client(location.origin);

export function currentSession(): Session | null {
  const raw = localStorage.getItem(key);
  if (!raw) return null;
  try {
    const session = JSON.parse(raw) as Session;
    if (typeof session.token === "string" && typeof session.email === "string" && typeof session.expiresAt === "string") return session;
  } catch {
    // Not ours or corrupted: dropped below.
  }
  localStorage.removeItem(key);
  return null;
}

export function signIn(session: Session): void {
  localStorage.setItem(key, JSON.stringify({ receivedAt: Date.now(), ...session }));
  listeners.forEach((notify) => notify());
}

/** Forgets the token here (and in the other tabs, which share the storage). */
export function signOut(): void {
  localStorage.removeItem(key);
  listeners.forEach((notify) => notify());
}

/** Logs in with the password: the answer's token is kept here, and the browser keeps the session's cookie. */
export async function logIn(email: string, password: string): Promise<void> {
  const { token, expiresAt } = await sessionClient.auth.login({ email, password });
  signIn({ token, expiresAt, email });
}

/** Signs out for real: the server ends the session and clears its cookie, then the page forgets the token. */
export async function logOut(): Promise<void> {
  try {
    await sessionClient.auth.logout({});
  } catch {
    // Unreachable server: the token is forgotten all the same, and the session ends on its own.
  } finally {
    signOut();
  }
}

/** Whether the token should be renewed before it is used: in the last fifth of its life, at most its last minute, or past it. */
function endingSoon(session: Session, now = Date.now()): boolean {
  const ends = Date.parse(session.expiresAt);
  const lifetime = ends - (session.receivedAt ?? ends - 3_600_000);
  return ends - now < Math.min(60_000, lifetime / 5);
}

let refreshing: Promise<Session | null> | null = null;

/**
 * Gets a new login token for the session from its cookie. One at a time in a tab: calls made
 * meanwhile wait for the same answer. (Two tabs refreshing at once both succeed: the server
 * answers the second within its grace.) Refused, the session has ended: signed out here.
 */
export function refreshSession(): Promise<Session | null> {
  refreshing ??= (async () => {
    const before = currentSession();
    if (!before) return null;
    try {
      const { token, expiresAt } = await sessionClient.auth.refresh({});
      const after = { token, expiresAt, email: currentSession()?.email ?? before.email, receivedAt: Date.now() };
      signIn(after);
      return after;
    } catch (err) {
      // An unreachable server is not a refusal: keep the session, the next call tries again.
      if (isAPIError(err) && err.code === ErrCode.Unauthenticated) signOut();
      return null;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/** The token to send now: renewed first when it is about to end, so a user in action stays signed in. */
export async function tokenForCall(): Promise<string | undefined> {
  const session = currentSession();
  if (!session) return undefined;
  if (!endingSoon(session)) return session.token;
  return (await refreshSession())?.token ?? currentSession()?.token;
}

/**
 * At start, a token that ended while the page was closed is renewed at once: the session may
 * have ended meanwhile (unused too long, signed out elsewhere), and the page should say so
 * before the user acts, not after.
 */
export function renewIfEnded(): void {
  const session = currentSession();
  if (session && Date.parse(session.expiresAt) <= Date.now()) void refreshSession();
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
