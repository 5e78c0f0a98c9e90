import { APIError } from "encore.dev/api";
import log from "encore.dev/log";

export const emailTaken = (): APIError => APIError.alreadyExists("an account with this email already exists");

/**
 * An address in ADMIN_EMAILS that no account holds: nobody may claim it, or the admin role
 * would go to whoever signed up first (access/admin-emails.ts). The client hears what a taken
 * email gets, so the answer does not name the admins; the operator reads why in the log.
 */
export function adminEmailClaimed(email: string): APIError {
  log.warn("refused an email listed in ADMIN_EMAILS: create the admin's account first, then list its email", { email });
  return emailTaken();
}
