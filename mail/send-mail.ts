import { appMeta } from "encore.dev";
import log from "encore.dev/log";
import { Subscription } from "encore.dev/pubsub";
import { SmtpSender } from "./delivery/transport";
import { parseMailConfig } from "./mail-config";
import { outgoingMail, type OutgoingMail } from "./events";

const config = parseMailConfig(process.env, new URL(appMeta().apiBaseUrl).hostname);
const sender = config.smtpUrl === null ? null : new SmtpSender(config.smtpUrl, config.from);
// Outside production a developer without a mail server reads a mail's body (a reset link)
// in the log; in production a body is never logged, since it may hold a secret.
const logBodies = appMeta().environment.type !== "production";

/**
 * Delivers each outgoing mail through SMTP_URL's server. A server that refuses or cannot be
 * reached fails the delivery, and the topic tries again with a growing wait (from 10 seconds
 * to 10 minutes, for about a day), so a mail server down for an hour loses nothing. Without
 * SMTP_URL each mail is logged (where it would have gone) and counted as handled.
 */
export const sendMail = new Subscription(outgoingMail, "send-mail", {
  handler: async (mail: OutgoingMail): Promise<void> => {
    if (sender === null) {
      log.info("mail not sent: SMTP_URL is not set", { to: mail.to, kind: mail.kind, subject: mail.subject, ...(logBodies && { text: mail.text }) });
      return;
    }
    await sender.send(mail);
    log.info("mail sent", { to: mail.to, kind: mail.kind });
  },
  // A few at a time: a burst of reports or invitations should not open dozens of SMTP connections.
  maxConcurrency: 4,
  retryPolicy: { minBackoff: "10s", maxBackoff: "10m", maxRetries: 150 },
});
