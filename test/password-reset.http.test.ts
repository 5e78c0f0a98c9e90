// Password reset by mail, against the app as a process and a real SMTP server started here:
// the mail and its link, the new password and what it ends (login tokens, sessions, keys),
// one use, the latest link only, expiry, a disabled account, the same answer for an unknown
// email, the limits, and a mail server that refuses for a while.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiCaller, signUpAndLogIn, type Call } from "./support/api-client.ts";
import { dropServerDatabases, startApp, type RunningApp } from "./support/app-process.ts";
import { startSmtpInbox, type ReceivedMail, type SmtpInbox } from "./support/smtp-inbox.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}pwreset_`;
const password = "correct horse battery";
const newPassword = "a brand new passphrase";

let inbox: SmtpInbox;
let app: RunningApp;
let call: Call;
let users: pg.Client;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  app = await startApp({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "password-reset-")),
    DATABASE_NAME_PREFIX: prefix,
    NATS_URL: "",
    JWTSecret: "password-reset-test-secret-".repeat(3),
    SMTP_URL: inbox.url,
    MAIL_FROM: "Links <no-reply@links.example>",
    // Each test asks from its own address (X-Forwarded-For's last entry).
    TRUST_PROXY: "on",
    PASSWORD_RESET_LIMIT_PER_ADDRESS: "5",
  });
  call = apiCaller(() => app.url);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${prefix}users`;
  users = new pg.Client({ connectionString: url.href });
  await users.connect();
}, 120_000);

afterAll(async () => {
  await users?.end();
  await app?.stop();
  await inbox?.close();
  await dropServerDatabases(prefix);
});

let addresses = 0;
/** An address of its own for each request, unless one is given: the per-address limit stays out of the way. */
const ask = (email: string, from = `10.1.0.${++addresses}`) => call("POST", "/password-reset", { body: { email }, headers: { "x-forwarded-for": from } });
const confirm = (token: string, pw = newPassword) => call("POST", "/password-reset/confirm", { body: { token, password: pw } });
const mailTo = (email: string, after = 0) => inbox.waitFor((m) => m.to === email && inbox.mails.indexOf(m) >= after);
const tokenOf = (mail: ReceivedMail) => /#\/reset\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
const mailsTo = (email: string) => inbox.mails.filter((m) => m.to === email).length;

describe("a reset by mail", () => {
  test("mails a link; the link sets a new password and ends every token, session and key issued before it", async () => {
    const email = "forgetful@example.com";
    const { token } = await signUpAndLogIn(call, email);
    const key = (await call("POST", "/me/api-keys", { body: { name: "script" }, token })).body.key as string;
    expect((await call("GET", "/me", { token: key })).status).toBe(200);

    const asked = await ask(email);
    expect(asked).toEqual({ status: 200, body: {} });
    const mail = await mailTo(email);
    expect(mail.subject).toBe("Reset your password");
    expect(mail.from).toContain("no-reply@links.example");
    expect(mail.text).toMatch(/^https?:\/\/\S+\/#\/reset\/[A-Za-z0-9_-]{43}$/m);

    expect(await confirm(tokenOf(mail))).toEqual({ status: 200, body: {} });
    expect((await call("GET", "/me", { token })).status).toBe(401);
    expect((await call("GET", "/me", { token: key })).status).toBe(401);
    expect((await call("POST", "/auth/login", { body: { email, password } })).status).toBe(401);
    expect((await call("POST", "/auth/login", { body: { email, password: newPassword } })).status).toBe(200);
  });

  test("a link works once", async () => {
    const email = "once@example.com";
    await signUpAndLogIn(call, email);
    await ask(email);
    const token = tokenOf(await mailTo(email));
    expect((await confirm(token)).status).toBe(200);
    const again = await confirm(token, "yet another passphrase");
    expect(again.status).toBe(404);
    expect(again.body.message).toBe("this reset link is unknown, used or expired: ask for a new one");
    expect((await call("POST", "/auth/login", { body: { email, password: newPassword } })).status).toBe(200);
  });

  test("a new request replaces the link before it", async () => {
    const email = "twice@example.com";
    await signUpAndLogIn(call, email);
    await ask(email);
    const first = tokenOf(await mailTo(email));
    const seen = inbox.mails.length;
    await ask(email);
    const second = tokenOf(await mailTo(email, seen));
    expect(second).not.toBe(first);
    expect((await confirm(first)).status).toBe(404);
    expect((await confirm(second)).status).toBe(200);
  });

  test("an expired link is refused, and the password stays", async () => {
    const email = "late@example.com";
    await signUpAndLogIn(call, email);
    await ask(email);
    const token = tokenOf(await mailTo(email));
    await users.query("UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM users WHERE email = $1)", [email]);
    expect((await confirm(token)).status).toBe(404);
    expect((await call("POST", "/auth/login", { body: { email, password } })).status).toBe(200);
  });

  test("a disabled account gets no mail, and a link mailed before its disabling no longer works", async () => {
    const email = "banned@example.com";
    await signUpAndLogIn(call, email);
    await ask(email);
    const token = tokenOf(await mailTo(email));
    await users.query("UPDATE users SET disabled_at = now() WHERE email = $1", [email]);
    expect((await confirm(token)).status).toBe(404);
    expect(await ask(email)).toEqual({ status: 200, body: {} });
    // A mail asked after it, to someone else, arrives: had the disabled account's been sent, it would be there by then too.
    await signUpAndLogIn(call, "after-banned@example.com");
    await ask("after-banned@example.com");
    await mailTo("after-banned@example.com");
    expect(mailsTo(email)).toBe(1);
  });

  test("an email no account has gets the same answer, and no mail", async () => {
    const unknown = await ask("nobody-here@example.com");
    await signUpAndLogIn(call, "somebody@example.com");
    const known = await ask("somebody@example.com");
    expect(unknown).toEqual(known);
    await mailTo("somebody@example.com");
    expect(mailsTo("nobody-here@example.com")).toBe(0);
  });

  test("a malformed email is 400, an unknown token 404", async () => {
    expect((await ask("not an email")).status).toBe(400);
    expect((await confirm("no-such-token")).status).toBe(404);
    expect((await call("POST", "/password-reset/confirm", { body: { token: "x", password: "short" } })).status).toBe(400);
  });
});

describe("limits", () => {
  test("an address may ask 5 times (PASSWORD_RESET_LIMIT_PER_ADDRESS), then 429 with Retry-After; another address may still ask", async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await ask(`flood-${i}@example.com`, "10.2.0.1")).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await fetch(`${app.url}/password-reset`, {
      method: "POST",
      headers: { "x-forwarded-for": "10.2.0.1" },
      body: JSON.stringify({ email: "flood-7@example.com" }),
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await ask("flood-8@example.com", "10.2.0.2")).status).toBe(200);
  });

  test("one email gets at most 3 mails an hour, whoever asks; the 4th request is answered alike and sends nothing", async () => {
    const email = "popular@example.com";
    await signUpAndLogIn(call, email);
    for (let i = 0; i < 4; i++) expect(await ask(email)).toEqual({ status: 200, body: {} });
    await signUpAndLogIn(call, "after-popular@example.com");
    await ask("after-popular@example.com");
    await mailTo("after-popular@example.com");
    await expect.poll(() => mailsTo(email)).toBe(3);
    expect(mailsTo(email)).toBe(3);
  });
});

test("a mail server that refuses for a while: the mail is sent again until it is taken", async () => {
  const email = "patient@example.com";
  await signUpAndLogIn(call, email);
  inbox.refusing = true;
  const refusedBefore = inbox.refused;
  await ask(email);
  await expect.poll(() => inbox.refused, { timeout: 20_000 }).toBeGreaterThan(refusedBefore);
  expect(mailsTo(email)).toBe(0);
  inbox.refusing = false;
  // The topic tries again after its backoff (10 seconds at first).
  const mail = await inbox.waitFor((m) => m.to === email, 40_000);
  expect(mail.subject).toBe("Reset your password");
}, 60_000);

describe("without SMTP_URL", () => {
  test("the app answers as ever, and logs where the mail would have gone, with its text outside production", async () => {
    const quiet = await startApp({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "password-reset-nomail-")),
      DATABASE_NAME_PREFIX: `${prefix}nomail_`,
      NATS_URL: "",
      JWTSecret: "password-reset-test-secret-".repeat(3),
      SMTP_URL: "",
    });
    try {
      const quietCall = apiCaller(() => quiet.url);
      await signUpAndLogIn(quietCall, "offline@example.com");
      expect(await quietCall("POST", "/password-reset", { body: { email: "offline@example.com" } })).toEqual({ status: 200, body: {} });
      await expect.poll(() => quiet.output(), { timeout: 20_000 }).toContain("mail not sent: SMTP_URL is not set");
      const line = quiet.output().split("\n").find((l) => l.includes("mail not sent"))!;
      expect(line).toContain("offline@example.com");
      expect(line).toContain("password-reset");
      expect(line).toMatch(/#\/reset\/[A-Za-z0-9_-]{43}/);
    } finally {
      await quiet.stop();
      await dropServerDatabases(`${prefix}nomail_`);
    }
  }, 120_000);
});
