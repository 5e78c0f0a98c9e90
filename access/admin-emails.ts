// ADMIN_EMAILS, read once at start: which accounts are admins (AuthData.admin, given by
// the auth handler), and which addresses nobody may claim by signing up or changing their
// email. Emails are not verified here, so a listed address with no account yet (or one
// freed by a deleted account or a changed email) would otherwise go to whoever claimed it
// first, and with it the admin role. The operator creates the account, then lists it.
// Shared code rather than either service's: the auth service reads the list for
// AuthData.admin and the users service for the addresses nobody may claim, each process
// from its own environment, so both must be given the same ADMIN_EMAILS.

/**
 * ADMIN_EMAILS: the emails of the accounts that are admins (AuthData.admin), comma-separated,
 * matched without regard to case. Unset or blank: nobody is. Empty entries (a trailing
 * comma) are ignored; anything else that is not an email stops start-up, naming the variable.
 */
export function parseAdminEmails(env: Readonly<Record<string, string | undefined>>): ReadonlySet<string> {
  const emails = new Set<string>();
  for (const entry of (env.ADMIN_EMAILS ?? "").split(",")) {
    const email = entry.trim();
    if (email === "") continue;
    if (email.length > 254 || !/^[^\s@,]+@[^\s@,]+$/.test(email)) {
      throw new Error(`invalid configuration: ADMIN_EMAILS must be a comma-separated list of emails, got "${email}" in it`);
    }
    emails.add(email.toLowerCase());
  }
  return emails;
}

const adminEmails = parseAdminEmails(process.env);

/** Whether the account with this (current) email is an admin. */
export const isAdminEmail = (email: string): boolean => adminEmails.has(email.toLowerCase());


/** Every admin email, as ADMIN_EMAILS lists them (lowercased): where news for the admins is mailed. */
export const adminEmailList = (): readonly string[] => [...adminEmails];
