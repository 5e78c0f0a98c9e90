// A password reset by mail, end to end in Chromium: the login page's "Forgot your password?",
// the form, the mail as a real SMTP server started here receives it, its link opened in the
// browser, a new password set, and a login with it; at a phone's width and a desktop's.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startSmtpInbox, type SmtpInbox } from "../../test/support/smtp-inbox.ts";
import { startBrowserTestBed, type BrowserTestBed } from "./servers.ts";
import { atBothWidths } from "./widths.ts";

const email = "forgetful.browser@example.com";
const oldPassword = "correct horse battery";
const newPassword = "a fresh passphrase 42";

let inbox: SmtpInbox;
let bed: BrowserTestBed | undefined;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  bed = await startBrowserTestBed({ SMTP_URL: inbox.url, MAIL_FROM: "Short links <no-reply@links.example>" });
  const res = await fetch(`${bed.app.url}/users`, { method: "POST", body: JSON.stringify({ email, name: "Forgetful", password: oldPassword }) });
  expect(res.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await bed?.close();
  await inbox?.close();
}, 60_000);

test("forgot password: the mailed link sets a new password, which then logs in, and the old one no longer does", async () => {
  const { app, browser, cspViolations } = bed!;
  const { page } = browser;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${app.url}/#/login`);
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("Forgot your password?");
  await atBothWidths(page, "forgot-password");

  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Mail me a link" }).click();
  await expect.poll(() => page.locator("main [role=status]").innerText()).toContain(`If an account has the email ${email}`);

  const mail = await inbox.waitFor((m) => m.to === email);
  expect(mail.subject).toBe("Reset your password");
  const link = /^(http\S+#\/reset\/\S+)$/m.exec(mail.text)![1]!;
  expect(link.startsWith(`${app.url}/#/reset/`)).toBe(true);

  await page.goto(link);
  await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("Choose a new password");
  await atBothWidths(page, "reset-password");
  await page.getByLabel("New password").fill(newPassword);
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect.poll(() => page.locator("main [role=status]").innerText()).toContain("Your password is changed");

  // The same link again: refused, with a way to ask for another.
  await page.goto(`${app.url}/#/`);
  await page.goto(link);
  await page.getByLabel("New password").fill("yet another passphrase");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect.poll(() => page.locator("main [role=alert]").innerText()).toContain("unknown, used or expired");
  expect(await page.getByRole("link", { name: "Ask for a new link" }).count()).toBe(1);

  await page.goto(`${app.url}/#/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(oldPassword);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect.poll(() => page.locator("main [role=alert]").innerText()).not.toBe("");
  await page.getByLabel("Password").fill(newPassword);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/links");
  expect(cspViolations).toEqual([]);
});
