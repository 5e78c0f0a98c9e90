import { Topic } from "encore.dev/pubsub";

/** One email to one person, published by the service that has something to say. */
export interface OutgoingMail {
  /** The recipient's address. */
  to: string;
  subject: string;
  /** The body, plain text: links in it are absolute (PUBLIC_BASE_URL). */
  text: string;
  /**
   * What the mail is for, named in logs and metrics instead of its body, which may hold
   * a secret (a reset link): password-reset, email-verification, invitation,
   * link-reported, webhook-disabled.
   */
  kind: string;
}

/**
 * Mail waiting to be sent. Publishing never waits on the SMTP server, so an endpoint
 * answers as fast whether or not a mail goes out (a password reset for an unknown email
 * looks like one for a known email).
 */
export const outgoingMail = new Topic<OutgoingMail>("outgoing-mail", { deliveryGuarantee: "at-least-once" });
