import Client, { ErrCode, isAPIError } from "./client.gen";
import { currentSession, signOut } from "./session";

/** The one API client: same origin, with the signed-in user's token on every call. */
export const client = new Client(location.origin, {
  auth: () => {
    const token = currentSession()?.token;
    return token ? { authorization: `Bearer ${token}` } : undefined;
  },
});

/** A message for a failed call, for people: the API's own message, or what went wrong on the way. */
export function errorMessage(err: unknown): string {
  if (isAPIError(err)) {
    // A token the server no longer accepts (expired, account deleted): sign out so the page says so.
    if (err.code === ErrCode.Unauthenticated && currentSession()) signOut();
    return err.message;
  }
  return "The server could not be reached. Check your connection and try again.";
}

/** The API's validation errors ("url must use http or https…") name the field they are about. */
export function isFieldError(err: unknown, field: string): boolean {
  return isAPIError(err) && err.code === ErrCode.InvalidArgument && new RegExp(`\\b${field}\\b`).test(err.message);
}

/** A validation message for its field: `field "age" of the request body must be number` → `Age must be number`. */
export function fieldMessage(err: unknown, label: string): string {
  return errorMessage(err).replace(/^field "[^"]+" of the request body /, `${label} `);
}
