// Email verification on an instance that requires it (EMAIL_VERIFICATION=on), against the
// app as a process and a real SMTP server started here: the link mailed at sign-up, login
// refused until it is followed, a new link on request, and an email change needing its own.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiCaller, type Call } from "./support/api-client.ts";
import { dropServerDatabases, startApp, type RunningApp } from "./support/app-process.ts";
import { startSmtpInbox, type ReceivedMail, type SmtpInbox } from "./support/smtp-inbox.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}verify_`;
const password = "correct horse battery";

let inbox: SmtpInbox;
let app: RunningApp;
let call: Call;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  app = await startApp({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "email-verification-")),
    DATABASE_NAME_PREFIX: prefix,
    NATS_URL: "",
    JWTSecret: "email-verification-test-secret-".repeat(3),
    SMTP_URL: inbox.url,
    EMAIL_VERIFICATION: "on",
    TRUST_PROXY: "on",
  });
  call = apiCaller(() => app.url);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await inbox?.close();
  await dropServerDatabases(prefix);
});

let addresses = 0;
const from = () => ({ "x-forwarded-for": `10.4.0.${++addresses}` });
const signUp = (email: string) => call("POST", "/users", { body: { email, name: "Vera", password }, headers: from() });
const logIn = (email: string, pw = password) => call("POST", "/auth/login", { body: { email, password: pw }, headers: from() });
const confirm = (token: string) => call("POST", "/email-verification/confirm", { body: { token } });
const tokenOf = (mail: ReceivedMail) => /#\/verify\/([A-Za-z0-9_-]+)$/m.exec(mail.text)![1]!;
const nextMailTo = (email: string, after: number) => inbox.waitFor((m) => m.to === email && inbox.mails.indexOf(m) >= after);

describe("an instance that requires a verified email", () => {
  test("sign-up mails a link; login is refused (400 failed_precondition) until it is followed, then works", async () => {
    const email = "new.person@example.com";
    const seen = inbox.mails.length;
    const created = await signUp(email);
    expect(created.status).toBe(200);
    expect(created.body.verificationMailed).toBe(true);
    const mail = await nextMailTo(email, seen);
    expect(mail.subject).toBe("Confirm your email");

    const refused = await logIn(email);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "failed_precondition", details: { reason: "email_unverified" } });
    // A wrong password says nothing of the account's state.
    expect((await logIn(email, "wrong password here")).status).toBe(401);

    expect(await confirm(tokenOf(mail))).toEqual({ status: 200, body: {} });
    expect((await logIn(email)).status).toBe(200);
    expect((await confirm(tokenOf(mail))).status).toBe(404);
  });

  test("a new link on request replaces the one before; the same answer for an email with no unverified account", async () => {
    const email = "slow.reader@example.com";
    let seen = inbox.mails.length;
    await signUp(email);
    const first = tokenOf(await nextMailTo(email, seen));
    seen = inbox.mails.length;
    const asked = await call("POST", "/email-verification", { body: { email }, headers: from() });
    expect(asked).toEqual({ status: 200, body: {} });
    const second = tokenOf(await nextMailTo(email, seen));
    expect((await confirm(first)).status).toBe(404);
    expect((await confirm(second)).status).toBe(200);
    expect(await call("POST", "/email-verification", { body: { email: "nobody.at.all@example.com" }, headers: from() })).toEqual(asked);
    // Verified now: asking again mails nothing, and answers alike.
    expect(await call("POST", "/email-verification", { body: { email }, headers: from() })).toEqual(asked);
  });

  test("a new email is unverified until its own link, mailed to it, is followed", async () => {
    const email = "mover@example.com";
    let seen = inbox.mails.length;
    const created = await signUp(email);
    expect((await confirm(tokenOf(await nextMailTo(email, seen)))).status).toBe(200);
    const token = (await logIn(email)).body.token as string;

    seen = inbox.mails.length;
    const moved = await call("PUT", `/users/${created.body.id as string}`, {
      body: { email: "moved@example.com", name: "Vera", currentPassword: password },
      token,
    });
    expect(moved.status).toBe(200);
    const newLink = tokenOf(await nextMailTo("moved@example.com", seen));
    expect((await logIn("moved@example.com")).body).toMatchObject({ code: "failed_precondition" });
    expect((await confirm(newLink)).status).toBe(200);
    expect((await logIn("moved@example.com")).status).toBe(200);
  });
});
