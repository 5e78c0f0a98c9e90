import { appMeta } from "encore.dev";
import { outgoingMail } from "../mail/events";

const roleSentence: Record<string, string> = {
  admin: "As an admin you will manage its links, members and invitations.",
  member: "As a member you will create, change and delete its links.",
  viewer: "As a viewer you will read its links and their analytics.",
};

/** Queues the mail carrying an invitation's link (the web page's #/invite/<token>). */
export async function mailInvitation(to: string, workspaceName: string, invitation: { token: string; role: string; expiresAt: Date }): Promise<void> {
  const base = appMeta().apiBaseUrl;
  await outgoingMail.publish({
    to,
    kind: "invitation",
    subject: `You are invited to the workspace ${workspaceName}`,
    text: [
      `You are invited to join the workspace "${workspaceName}" at ${new URL(base).host}.`,
      roleSentence[invitation.role] ?? "",
      "",
      "Sign in (or sign up), then open this link to join:",
      `${base}/#/invite/${invitation.token}`,
      "",
      `The link works once, until ${invitation.expiresAt.toISOString().slice(0, 10)}. If you did not expect it, ignore this mail.`,
    ].join("\n"),
  });
}
