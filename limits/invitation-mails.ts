// A limit on invitations mailed by one account (the workspaces service's POST
// /workspaces/:id/invitations with an email).
import { Limiter, refusedPast } from "./limiter/limiter";

/**
 * 50 a day per account: a team is invited in one sitting, and anyone may open an account
 * and a team workspace, so without a limit the app would send mail to any address at
 * anyone's word. Fixed, not a setting: an operator with a larger team to invite shares links.
 */
const mailsPerDay = 50;

const byAccount = new Limiter({ name: "invitation-mails:account", points: mailsPerDay, durationSeconds: 24 * 3600 });

/** Counts one invitation mail of `userId`; 429 resource_exhausted past the limit. */
export async function countInvitationMail(userId: string): Promise<void> {
  await refusedPast("too many invitations mailed by this account today; share the invitation's link instead", () => byAccount.consume(userId));
}
