// The Webhooks page in a real browser against the real app and a receiver started here: a
// webhook added (its secret shown once), a link's event delivered and shown in the log, sent
// again from the page, the webhook disabled, enabled and deleted; at 390 px and 1280 px.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startReceiver, validSignature, type Receiver } from "../../test/support/webhook-receiver.ts";
import type { Browser } from "./browser.ts";
import { startBrowserTestBed, type BrowserApp, type BrowserTestBed } from "./servers.ts";
import { newAccount, openSignedIn } from "./sign-in.ts";
import { atBothWidths } from "./widths.ts";

let bed: BrowserTestBed | undefined;
let app: BrowserApp;
let browser: Browser;
let cspViolations: string[] = [];
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  bed = await startBrowserTestBed({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "on" });
  ({ app, browser, cspViolations } = bed);
}, 120_000);

afterAll(async () => {
  await bed?.close();
  await receiver?.close();
}, 60_000);

describe("the Webhooks page", () => {
  test("add a webhook, see its delivery, send it again, disable, enable and delete it", async () => {
    const account = await newAccount(app.url, `hooks-${Date.now()}@example.com`, "Hooker");
    const { page } = browser;
    await page.setViewportSize({ width: 1280, height: 900 });
    await openSignedIn(page, app.url, account, `/#/workspaces/${account.userID}`);
    await page.getByRole("link", { name: "Webhooks" }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toMatch(/^Webhooks/);
    await page.getByText("No webhooks yet.").waitFor();

    // A refused URL says why, in the form.
    await page.getByLabel("URL").fill("ftp://example.com/");
    await page.getByRole("button", { name: "Add webhook" }).click();
    await page.getByText(/absolute http or https URL/).first().waitFor();

    await page.getByLabel("URL").fill(`${receiver.url}/page`);
    await page.getByLabel("Links are clicked (in batches)").uncheck();
    await page.getByRole("button", { name: "Add webhook" }).click();
    const secret = await page.locator("code.secret").innerText();
    expect(secret).toMatch(/^whsec_/);
    const hook = page.locator("li.webhook");
    await expect.poll(() => hook.count()).toBe(1);
    expect(await hook.innerText()).toContain("A link is created · A link is changed · A link is deleted");
    await atBothWidths(page, "webhooks-added");

    // An event: a link made through the API arrives, signed with the secret shown.
    const shorten = await fetch(`${app.url}/shorten`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${account.token}` },
      body: JSON.stringify({ url: "https://hooks.example/page" }),
    });
    expect(shorten.status).toBe(200);
    await expect.poll(() => receiver.received.filter((r) => r.path === "/page").length, { timeout: 20_000 }).toBe(1);
    const first = receiver.received.find((r) => r.path === "/page")!;
    expect(validSignature(secret, first.headers["webhook-signature"], first.body)).toBe(true);

    await hook.getByRole("button", { name: "Deliveries" }).click();
    const delivery = hook.locator("li.delivery");
    await expect.poll(() => delivery.count()).toBe(1);
    expect(await delivery.innerText()).toMatch(/link\.created · delivered/);
    expect(await delivery.innerText()).toMatch(/1 attempt · last: 200 in \d+ ms/);
    await atBothWidths(page, "webhooks-deliveries");

    await delivery.getByRole("button", { name: /^Send link\.created .* again$/ }).click();
    await expect.poll(() => receiver.received.filter((r) => r.path === "/page").length, { timeout: 20_000 }).toBe(2);
    const [a, b] = receiver.received.filter((r) => r.path === "/page");
    expect(b!.body).toBe(a!.body);
    await hook.getByRole("button", { name: "Refresh" }).click();
    await expect.poll(() => delivery.innerText()).toMatch(/2 attempts/);

    await hook.getByRole("button", { name: "Disable" }).click();
    await expect.poll(() => hook.locator(".badge").innerText()).toBe("Disabled");
    await hook.getByRole("button", { name: "Enable" }).click();
    await expect.poll(() => hook.locator(".badge").innerText()).toBe("Enabled");

    await hook.getByRole("button", { name: `Delete the webhook to ${receiver.url}/page` }).click();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByText("No webhooks yet.").waitFor();
    expect(cspViolations).toEqual([]);
  }, 120_000);
});
