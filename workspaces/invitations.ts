import { api, APIError } from "encore.dev/api";
import type { IsEmail, MaxLen } from "encore.dev/validate";
import { isWorkspaceRole, manageableRoles } from "../access/workspace-roles";
import { isUuid, memberAllowedTo, signedInAccount } from "./store/caller";
import { acceptInvitation, createInvitation, pendingInvitations, revokeInvitation, type Invitation } from "./store/invitation-rows";
import { workspaceFor, type Workspace } from "./store/workspace-rows";
import { mailInvitation } from "./invitation-mail";
import { countInvitationMail } from "../limits/invitation-mails";

export interface InvitationRequest {
  id: string;
  /** The role the invited person joins with: admin (the owner only), member or viewer. */
  role: string;
  /**
   * Given: the invitation's link is mailed to this address too (when the instance has a mail
   * server, SMTP_URL). Whoever signs in and accepts joins, as with a link shared by hand:
   * the address is where the link goes, not who may use it.
   */
  email?: string & IsEmail & MaxLen<254>;
}

export interface NewInvitation extends Invitation {
  /** The secret to share, shown this once: whoever signs in and accepts it joins. */
  token: string;
  /** The address the link was mailed to, when the request gave one. */
  mailedTo?: string;
}

export interface InvitationList {
  /** Not yet used and not expired, newest first. */
  invitations: Invitation[];
}

export interface InvitationRef {
  id: string;
  invitationId: string;
}

export interface AcceptRequest {
  token: string & MaxLen<100>;
}

/**
 * Makes an invitation to a team workspace: one use, for 7 days. Its owner or an admin,
 * within the roles they may grant (an admin cannot invite admins: 403). A personal
 * workspace takes no one else: 400. With `email`, the link is mailed there too, up to 50
 * mails a day per account (429 past it).
 */
export const invite = api(
  { expose: true, auth: true, method: "POST", path: "/workspaces/:id/invitations" },
  async ({ id, role, email }: InvitationRequest): Promise<NewInvitation> => {
    const userId = signedInAccount("invite people");
    const callerRole = await memberAllowedTo(id, userId, "manage-members");
    const workspace = (await workspaceFor(id, userId))!;
    if (workspace.personal) throw APIError.failedPrecondition("a personal workspace has no other members: create a team workspace");
    if (!isWorkspaceRole(role) || role === "owner") throw APIError.invalidArgument("role must be admin, member or viewer");
    if (!manageableRoles(callerRole).includes(role)) throw APIError.permissionDenied(`a workspace ${callerRole} cannot invite a ${role}`);
    if (email !== undefined) await countInvitationMail(userId);
    const invitation = await createInvitation(id, role, userId);
    if (email === undefined) return invitation;
    await mailInvitation(email, workspace.name, invitation);
    return { ...invitation, mailedTo: email };
  },
);

/** The workspace's pending invitations, without their tokens: its owner or an admin. */
export const listInvitations = api(
  { expose: true, auth: true, method: "GET", path: "/workspaces/:id/invitations" },
  async ({ id }: { id: string }): Promise<InvitationList> => {
    const userId = signedInAccount("read invitations");
    await memberAllowedTo(id, userId, "manage-members");
    return { invitations: await pendingInvitations(id) };
  },
);

/** Withdraws a pending invitation: its owner or an admin. Used or unknown: 404. */
export const revoke = api(
  { expose: true, auth: true, method: "DELETE", path: "/workspaces/:id/invitations/:invitationId" },
  async ({ id, invitationId }: InvitationRef): Promise<void> => {
    const userId = signedInAccount("revoke invitations");
    await memberAllowedTo(id, userId, "manage-members");
    if (!isUuid(invitationId) || !(await revokeInvitation(id, invitationId))) throw APIError.notFound("no pending invitation by that id");
  },
);

/**
 * Joins the workspace of an invitation, as the signed-in account, with its role. The token
 * goes in the body, not the path, so that it stays out of access logs. Unknown, used,
 * revoked or expired: 404, alike; already a member: 409 already_exists, and the
 * invitation stays unused for someone else.
 */
export const acceptInvite = api(
  { expose: true, auth: true, method: "POST", path: "/invitations/accept" },
  async ({ token }: AcceptRequest): Promise<Workspace> => {
    const userId = signedInAccount("accept invitations");
    const accepted = await acceptInvitation(token, userId);
    if (accepted === "unknown") throw APIError.notFound("this invitation is unknown, used, revoked or expired");
    if (accepted === "already-member") throw APIError.alreadyExists("you are already a member of this workspace");
    return (await workspaceFor(accepted.workspaceId, userId))!;
  },
);
