import nodemailer, { type Transporter } from "nodemailer";
import type { OutgoingMail } from "../events";

/** How long one SMTP step may take: a server away fails the delivery, which the topic retries. */
const timeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * Sends mail through one SMTP server. The transport is made at the first mail, so importing
 * the service connects nowhere; it opens a connection per message (no pool), so an idle app
 * holds none open.
 */
export class SmtpSender {
  readonly #url: string;
  readonly #from: string;
  #transport: Transporter | null = null;

  constructor(url: string, from: string) {
    this.#url = url;
    this.#from = from;
  }

  /** Resolves once the server accepted the message; throws when it did not (or could not be reached). */
  async send(mail: OutgoingMail): Promise<void> {
    this.#transport ??= nodemailer.createTransport({ url: this.#url, ...timeouts });
    await this.#transport.sendMail({ from: this.#from, to: mail.to, subject: mail.subject, text: mail.text });
  }
}
