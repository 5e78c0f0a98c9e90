import { APIError } from "encore.dev/api";
import { ConsecutiveFailures } from "../../limits/consecutive-failures";
import { refusedPast } from "../../limits/limiter/limiter";
import { passwords } from "../../passwords/passwords";
import { userNotFound } from "./own-record";
import { userStore } from "./user-store";

/**
 * Wrong current passwords per account, consecutive: a stolen login token (an hour's worth)
 * cannot be turned into the password by trying it here faster than at login (the first 4
 * free, then 1 s, 2 s, 4 s, … between attempts; limits/consecutive-failures.ts).
 */
const wrongGuesses = new ConsecutiveFailures("account:current-password");

/**
 * Checks the current password of the account `userID`, asked before what only the
 * account's owner may do (change the email or password, delete the account): a login
 * token alone, which someone else may hold, is not proof enough. Missing: 400
 * invalid_argument, naming `action`. Wrong: 403 permission_denied, not 401: the caller is
 * signed in, and a client that took 401 for "sign in again" would drop a good session.
 */
export async function requireCurrentPassword(userID: string, currentPassword: string | undefined, action: string): Promise<void> {
  const stored = await userStore.passwordHash(userID);
  if (stored === undefined) throw userNotFound();
  if (currentPassword === undefined || currentPassword === "") {
    throw APIError.invalidArgument(`currentPassword is required to ${action}`);
  }
  await refusedPast("too many wrong current passwords", () => wrongGuesses.begin(userID));
  let right: boolean;
  try {
    right = await passwords.verify(currentPassword, stored);
  } catch (err) {
    await wrongGuesses.takeBack(userID); // not checked: the server was too busy
    throw err;
  }
  if (!right) throw APIError.permissionDenied("the current password is wrong");
  await wrongGuesses.clear(userID);
}
