// Email verification on an instance that requires it, in Chromium: sign up, the login page
// says a link was mailed, a login before following it is refused and offers a new link, the
// mailed link (received by a real SMTP server started here) confirms, and the login works.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startSmtpInbox, type SmtpInbox } from "../../test/support/smtp-inbox.ts";
import { startBrowserTestBed, type BrowserTestBed } from "./servers.ts";
import { atBothWidths } from "./widths.ts";

const email = "verify.browser@example.com";
const password = "correct horse battery";

let inbox: SmtpInbox;
let bed: BrowserTestBed | undefined;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  bed = await startBrowserTestBed({ SMTP_URL: inbox.url, EMAIL_VERIFICATION: "on" });
}, 120_000);

afterAll(async () => {
  await bed?.close();
  await inbox?.close();
}, 60_000);

const tokenLink = (text: string) => /^(http\S+#\/verify\/\S+)$/m.exec(text)![1]!;

test("sign up, a refused login offering a new link, the mailed link confirms, then the login works", async () => {
  const { app, browser, cspViolations } = bed!;
  const { page } = browser;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${app.url}/#/signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Name").fill("Vera");
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect.poll(() => page.locator("main p.notice").innerText()).toContain(`We mailed a link to ${email}`);
  const first = await inbox.waitFor((m) => m.to === email);

  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect.poll(() => page.locator("main [role=alert]").innerText()).toContain("verify your email first");
  await page.getByRole("button", { name: "Mail me a new link" }).click();
  await expect.poll(() => page.locator("main [role=status]").innerText()).toContain(`A new link is on its way to ${email}`);
  const second = await inbox.waitFor((m) => m.to === email && m !== first);
  await atBothWidths(page, "login-unverified");

  await page.goto(tokenLink(second.text));
  await expect.poll(() => page.locator("main [role=status]").innerText()).toContain("Your email is confirmed");
  await atBothWidths(page, "email-confirmed");
  // The first link was replaced by the second.
  await page.goto(`${app.url}/#/`);
  await page.goto(tokenLink(first.text));
  await expect.poll(() => page.locator("main [role=alert]").innerText()).toContain("unknown, used or expired");

  await page.goto(`${app.url}/#/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/links");
  expect(cspViolations).toEqual([]);
});
