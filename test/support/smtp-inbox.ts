// A real SMTP server for tests (nodemailer's smtp-server), on a free loopback port: it
// takes every mail the app sends, parses it (mailparser) and lets a test wait for the one
// it expects. It can be told to refuse mail for a while, as a mail server that is down.
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  /** The recipient's address alone (no display name), as the envelope has it. */
  readonly to: string;
  readonly from: string;
  readonly subject: string;
  readonly text: string;
}

export interface SmtpInbox {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  readonly url: string;
  /** Every mail accepted so far, oldest first. */
  readonly mails: readonly ReceivedMail[];
  /** Resolves with the first mail (received or to come) that `matches`; rejects after `timeoutMs`. */
  waitFor(matches: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** While true, every mail is refused with a temporary failure (451), as by a server in trouble. */
  refusing: boolean;
  /** How many mails were refused so far. */
  readonly refused: number;
  close(): Promise<void>;
}

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const mails: ReceivedMail[] = [];
  const waiters: Array<{ matches: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }> = [];
  const inbox = { refusing: false, refused: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"], // plain SMTP on loopback: the app's transport sends in clear when TLS is not offered
    logger: false,
    onData(stream, session, done) {
      if (inbox.refusing) {
        inbox.refused++;
        stream.resume();
        stream.on("end", () => done(Object.assign(new Error("try again later"), { responseCode: 451 })));
        return;
      }
      simpleParser(stream).then(
        (parsed) => {
          const to = session.envelope.rcptTo.map((r) => r.address).join(", ");
          const mail = { to, from: parsed.from?.text ?? "", subject: parsed.subject ?? "", text: parsed.text ?? "" };
          mails.push(mail);
          for (const w of waiters.filter((w) => w.matches(mail))) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(mail);
          }
          done();
        },
        (err: Error) => done(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    get refusing() {
      return inbox.refusing;
    },
    set refusing(value: boolean) {
      inbox.refusing = value;
    },
    get refused() {
      return inbox.refused;
    },
    waitFor(matches, timeoutMs = 20_000) {
      const found = mails.find(matches);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no such mail within ${timeoutMs} ms; received: ${JSON.stringify(mails.map((m) => [m.to, m.subject]))}`)), timeoutMs);
        waiters.push({ matches, resolve: (m) => (clearTimeout(timer), resolve(m)) });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
