// Mail besides password resets, against the app as a process and a real SMTP server started
// here: an invitation mailed to an address (its link joins the workspace), the limit on
// invitation mails, and each new report of a link mailed to every admin.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiCaller, signUpAndLogIn, type Call } from "./support/api-client.ts";
import { dropServerDatabases, startApp, type RunningApp } from "./support/app-process.ts";
import { startSmtpInbox, type SmtpInbox } from "./support/smtp-inbox.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}mailhttp_`;
const admins = ["first-admin@example.com", "second-admin@example.com"];

let inbox: SmtpInbox;
let app: RunningApp;
let call: Call;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  app = await startApp({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "mail-http-")),
    DATABASE_NAME_PREFIX: prefix,
    NATS_URL: "",
    JWTSecret: "mail-http-test-secret-".repeat(3),
    SMTP_URL: inbox.url,
    ADMIN_EMAILS: admins.join(","),
    TRUST_PROXY: "on",
  });
  call = apiCaller(() => app.url);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await inbox?.close();
  await dropServerDatabases(prefix);
});

const mailsTo = (email: string) => inbox.mails.filter((m) => m.to === email);

describe("invitations by mail", () => {
  test("an invitation with an email is mailed there, and the mailed link joins the workspace with its role", async () => {
    const owner = await signUpAndLogIn(call, "team-owner@example.com");
    const team = await call("POST", "/workspaces", { body: { name: "Rocket team" }, token: owner.token });
    const made = await call("POST", `/workspaces/${team.body.id as string}/invitations`, {
      body: { role: "viewer", email: "new-teammate@example.com" },
      token: owner.token,
    });
    expect(made.status).toBe(200);
    expect(made.body.mailedTo).toBe("new-teammate@example.com");

    const mail = await inbox.waitFor((m) => m.to === "new-teammate@example.com");
    expect(mail.subject).toBe("You are invited to the workspace Rocket team");
    expect(mail.text).toContain("As a viewer");
    const token = /#\/invite\/(\S+)/.exec(mail.text)![1]!;
    expect(token).toBe(made.body.token);

    const invited = await signUpAndLogIn(call, "new-teammate@example.com");
    const joined = await call("POST", "/invitations/accept", { body: { token }, token: invited.token });
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ id: team.body.id, role: "viewer" });
  });

  test("without an email nothing is mailed; a malformed one is 400 and makes no invitation", async () => {
    const owner = await signUpAndLogIn(call, "quiet-owner@example.com");
    const team = (await call("POST", "/workspaces", { body: { name: "Quiet" }, token: owner.token })).body.id as string;
    const before = inbox.mails.length;
    const plain = await call("POST", `/workspaces/${team}/invitations`, { body: { role: "member" }, token: owner.token });
    expect(plain.status).toBe(200);
    expect(plain.body.mailedTo).toBeUndefined();
    expect((await call("POST", `/workspaces/${team}/invitations`, { body: { role: "member", email: "nope" }, token: owner.token })).status).toBe(400);
    expect(((await call("GET", `/workspaces/${team}/invitations`, { token: owner.token })).body.invitations as unknown[]).length).toBe(1);
    // An invitation mailed after them arrives; had either been mailed, it would be in by then.
    await call("POST", `/workspaces/${team}/invitations`, { body: { role: "member", email: "barrier@example.com" }, token: owner.token });
    await inbox.waitFor((m) => m.to === "barrier@example.com");
    expect(inbox.mails.length).toBe(before + 1);
  });

  test("an account mails at most 50 invitations a day: the 51st is 429 and makes no invitation", async () => {
    const owner = await signUpAndLogIn(call, "busy-owner@example.com");
    const team = (await call("POST", "/workspaces", { body: { name: "Busy" }, token: owner.token })).body.id as string;
    const invite = (i: number) => call("POST", `/workspaces/${team}/invitations`, { body: { role: "member", email: `guest-${i}@example.com` }, token: owner.token });
    for (let i = 0; i < 50; i++) expect((await invite(i)).status).toBe(200);
    const refused = await invite(50);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^too many invitations mailed by this account today/);
    expect(((await call("GET", `/workspaces/${team}/invitations`, { token: owner.token })).body.invitations as unknown[]).length).toBe(50);
    // Without an email an invitation is still made: the limit is on mail, not on invitations.
    expect((await call("POST", `/workspaces/${team}/invitations`, { body: { role: "member" }, token: owner.token })).status).toBe(200);
  });
});

describe("reports mailed to the admins", () => {
  test("a new report is mailed to every admin once; the same address reporting it again mails nothing", async () => {
    const code = (await call("POST", "/shorten", { body: { url: "https://phish.example/login" }, headers: { "x-forwarded-for": "10.3.0.1" } })).body.code as string;
    const report = () =>
      call("POST", "/reports", { body: { code, reason: "phishing", details: "asks for my bank password" }, headers: { "x-forwarded-for": "10.3.0.2" } });
    expect((await report()).status).toBe(200);
    for (const admin of admins) {
      const mail = await inbox.waitFor((m) => m.to === admin && m.subject === `Link ${code} reported as phishing`);
      expect(mail.text).toContain(`/${code}`);
      expect(mail.text).toContain("asks for my bank password");
      expect(mail.text).toContain("/#/admin");
    }
    expect((await report()).status).toBe(200);
    // A report of another link, after: once its mails are in, a second mail of the first would be too.
    const other = (await call("POST", "/shorten", { body: { url: "https://spam.example/" }, headers: { "x-forwarded-for": "10.3.0.1" } })).body.code as string;
    await call("POST", "/reports", { body: { code: other, reason: "spam" }, headers: { "x-forwarded-for": "10.3.0.3" } });
    for (const admin of admins) await inbox.waitFor((m) => m.to === admin && m.subject === `Link ${other} reported as spam`);
    for (const admin of admins) expect(mailsTo(admin).filter((m) => m.subject.startsWith(`Link ${code} `)).length).toBe(1);
  });
});
