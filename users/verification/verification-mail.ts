import { randomBytes } from "node:crypto";
import { appMeta } from "encore.dev";
import { outgoingMail } from "../../mail/events";
import { emailVerificationStore } from "../accounts/email-verification-store";

/** Makes a new verification link for the account's email (replacing its earlier ones) and queues its mail. */
export async function mailVerification(userId: string, email: string): Promise<void> {
  const token = randomBytes(32).toString("base64url");
  await emailVerificationStore.replace(userId, email, token);
  const base = appMeta().apiBaseUrl;
  await outgoingMail.publish({
    to: email,
    kind: "email-verification",
    subject: "Confirm your email",
    text: [
      `Confirm that ${email} is yours, to log in to your account at ${new URL(base).host}:`,
      `${base}/#/verify/${token}`,
      "",
      "The link works for a day. If you did not make this account, ignore this mail.",
    ].join("\n"),
  });
}
