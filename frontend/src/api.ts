import Client, { ErrCode, isAPIError } from "./client.gen";
import { currentSession, refreshSession, signOut, tokenForCall } from "./session";

/**
 * A 401 to a call made with a login token: the token ended early (another tab signed in
 * again, the server's clock), so the session's cookie gets a new one and the call is made
 * once more with it. Refused again, the session has ended (refreshSession signs out).
 */
const retryingFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  const headers = new Headers(init?.headers);
  if (res.status !== 401 || !headers.has("authorization")) return res;
  const renewed = await refreshSession();
  if (!renewed) return res;
  headers.set("authorization", `Bearer ${renewed.token}`);
  return fetch(input, { ...init, headers });
};

/** The one API client: same origin, with the signed-in user's token on every call, renewed as it ends. */
export const client = new Client(location.origin, {
  auth: async () => {
    const token = await tokenForCall();
    return token ? { authorization: `Bearer ${token}` } : undefined;
  },
  fetcher: retryingFetch,
});

/** A message for a failed call, for people: the API's own message, or what went wrong on the way. */
export function errorMessage(err: unknown): string {
  if (isAPIError(err)) {
    // Refused even after a refresh (account deleted, signed out everywhere): sign out so the page says so.
    if (err.code === ErrCode.Unauthenticated && currentSession()) signOut();
    return err.message;
  }
  return "The server could not be reached. Check your connection and try again.";
}

/** The API's validation errors ("url must use http or https…") name the field they are about. */
export function isFieldError(err: unknown, field: string): boolean {
  return isAPIError(err) && err.code === ErrCode.InvalidArgument && new RegExp(`\\b${field}\\b`).test(err.message);
}

/**
 * A validation message for its field, in Encore's words without the decoder's prefix:
 * `unable to decode request body: age: value must be at least 13 (got 3)` → `Age: value must be at least 13 (got 3)`.
 */
export function fieldMessage(err: unknown, label: string): string {
  return errorMessage(err).replace(/^unable to decode request body: [^:]+: /, `${label}: `);
}
