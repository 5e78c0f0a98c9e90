// The mail service's settings, read from the environment once, validated and frozen.

type Env = Readonly<Record<string, string | undefined>>;

export interface MailConfig {
  /**
   * The SMTP server mail goes through, as nodemailer takes it (`smtp://user:pass@host:587`,
   * `smtps://…:465`); null: no mail is sent and each is logged instead.
   */
  readonly smtpUrl: string | null;
  /** The sender, `no-reply@<PUBLIC_BASE_URL's host>` unless MAIL_FROM says otherwise. */
  readonly from: string;
}

export function parseMailConfig(env: Env, publicHost: string): MailConfig {
  const raw = env.SMTP_URL?.trim();
  let smtpUrl: string | null = null;
  if (raw) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new Error(`invalid configuration: SMTP_URL must be a URL such as smtp://user:password@mail.example.com:587, got "${raw.replace(/\/\/[^@/]*@/, "//…@")}"`);
    }
    if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
      throw new Error(`invalid configuration: SMTP_URL must start with smtp:// (STARTTLS when offered) or smtps:// (TLS), not ${url.protocol}//`);
    }
    if (!url.hostname) throw new Error("invalid configuration: SMTP_URL names no host");
    smtpUrl = raw;
  }
  const from = env.MAIL_FROM?.trim() || `no-reply@${publicHost}`;
  // A display name is allowed ("Links <no-reply@example.com>"); the address must look like one.
  // No line break anywhere: the value becomes a mail header, where one would start another header.
  if (/[\r\n]/.test(from) || !/^([^<>]*<)?[^\s@<>]+@[^\s@<>]+>?$/.test(from)) {
    throw new Error(`invalid configuration: MAIL_FROM must be an address such as no-reply@example.com or "Links <no-reply@example.com>", got "${from}"`);
  }
  return Object.freeze({ smtpUrl, from });
}
