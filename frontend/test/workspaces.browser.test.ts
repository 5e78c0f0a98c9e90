// A team's workspace in real browsers against the real app: the owner makes it and invites
// a member and a viewer by link; each accepts in their own browser context (signing in, or
// up, on the way); the member adds a link, the viewer reads it and its analytics without
// edit controls; the owner removes the member, whose next page load no longer shows them.
// The tests run in order and share the people.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Page } from "playwright-core";
import { launchPeople, screenshot, type People } from "./browser.ts";
import { startAppForBrowser, startTargetServer, type BrowserApp, type TargetServer } from "./servers.ts";

let app: BrowserApp | undefined;
let target: TargetServer | undefined;
let people: People | undefined;
let owner: Page;
let member: Page;
let viewer: Page;

const password = "correct horse battery";
const stamp = Date.now().toString(36);
const emails = { owner: `olga-${stamp}@example.com`, member: `max-${stamp}@example.com`, viewer: `vera-${stamp}@example.com` };
let memberId = "";
let workspaceId = "";
const invitations = { member: "", viewer: "" };
let code = "";

beforeAll(async () => {
  [app, target, people] = await Promise.all([startAppForBrowser(), startTargetServer(), launchPeople()]);
  [owner, member, viewer] = await Promise.all([people.person(), people.person(), people.person()]);
}, 120_000);

afterAll(async () => {
  await people?.close();
  await target?.close();
  await app?.stop();
}, 60_000);

async function signUp(email: string): Promise<string> {
  const res = await fetch(`${app!.url}/users`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, name: email.split("-")[0], age: 30, password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

async function logIn(page: Page, email: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

const hash = (page: Page) => page.evaluate<string>("location.hash");
const main = (page: Page) => page.getByRole("main");

describe("a team's workspace, in the browser", () => {
  test("the owner creates a workspace and makes an invitation link for a member and one for a viewer", async () => {
    await signUp(emails.owner);
    memberId = await signUp(emails.member);
    await owner.goto(`${app!.url}/#/login`);
    await logIn(owner, emails.owner);
    await expect.poll(() => hash(owner)).toBe("#/links");

    await owner.getByRole("navigation").getByRole("link", { name: "Workspaces" }).click();
    await owner.getByLabel("Name").fill("Team Rocket");
    await owner.getByRole("button", { name: "Create workspace" }).click();
    await expect.poll(() => hash(owner)).toMatch(/^#\/workspaces\/[0-9a-f-]{36}$/);
    workspaceId = (await hash(owner)).split("/")[2]!;
    await expect.poll(() => main(owner).getByRole("heading", { level: 1 }).textContent()).toBe("Team Rocket");
    expect(await main(owner).textContent()).toContain("Your role: Owner");

    for (const role of ["member", "viewer"] as const) {
      await owner.getByLabel("Role", { exact: true }).selectOption(role);
      await owner.getByRole("button", { name: "Create invitation link" }).click();
      const link = owner.getByRole("region", { name: "New invitation link" }).locator(".invitation-link");
      await expect.poll(() => link.textContent()).not.toBe(invitations.member);
      invitations[role] = (await link.textContent())!;
      // The page's own address with the invite route: what InvitePage reads.
      expect(invitations[role]).toMatch(new RegExp(`^${app!.url}/#/invite/[A-Za-z0-9_-]{43}$`));
    }
    const pending = main(owner).getByRole("list", { name: "Pending" }).getByRole("listitem");
    await expect.poll(() => pending.allTextContents()).toEqual([expect.stringMatching(/^Viewer/), expect.stringMatching(/^Member/)]);
    await screenshot(owner, "workspace-owner-invited");
  });

  test("the member opens the link signed out, logs in, comes back to it and accepts", async () => {
    await member.goto(invitations.member);
    await expect.poll(() => main(member).getByRole("heading", { level: 1 }).textContent()).toBe("Join a workspace");
    expect(await main(member).getByRole("button", { name: "Accept" }).count()).toBe(0);
    await main(member).getByRole("link", { name: "Log in" }).click();
    await logIn(member, emails.member);
    await expect.poll(() => hash(member)).toBe(new URL(invitations.member).hash);
    await screenshot(member, "invite-signed-in");
    await member.getByRole("button", { name: "Accept" }).click();
    await expect.poll(() => hash(member)).toBe(`#/workspaces/${workspaceId}`);
    await expect.poll(() => main(member).textContent()).toContain("Your role: Member");
    // A member may not manage: no invitations, no role selects, no Remove buttons.
    expect(await main(member).getByRole("heading", { name: "Invitations" }).count()).toBe(0);
    expect(await main(member).getByRole("combobox").count()).toBe(0);
    expect(await main(member).getByRole("button", { name: /^Remove / }).count()).toBe(0);
    expect(await main(member).getByRole("button", { name: "Leave Team Rocket" }).isVisible()).toBe(true);
  });

  test("a used invitation says so (404)", async () => {
    await member.goto(invitations.member);
    await member.getByRole("button", { name: "Accept" }).click();
    await expect.poll(() => main(member).getByRole("alert").textContent()).toMatch(/used, revoked or has expired/);
  });

  test("the viewer signs up from the link, logs in, and accepts", async () => {
    await viewer.goto(invitations.viewer);
    await main(viewer).getByRole("link", { name: "sign up" }).click();
    await viewer.getByLabel("Email").fill(emails.viewer);
    await viewer.getByLabel("Name").fill("Vera");
    await viewer.getByLabel("Password").fill(password);
    await viewer.getByRole("button", { name: "Sign up" }).click();
    await expect.poll(() => hash(viewer)).toMatch(/^#\/login\?then=/);
    await viewer.getByRole("button", { name: "Log in" }).waitFor();
    await viewer.getByLabel("Password").fill(password);
    await viewer.getByRole("button", { name: "Log in" }).click();
    await expect.poll(() => hash(viewer)).toBe(new URL(invitations.viewer).hash);
    await viewer.getByRole("button", { name: "Accept" }).click();
    await expect.poll(() => main(viewer).textContent()).toContain("Your role: Viewer");
  });

  test("an invitation to a workspace one is in already says so (409)", async () => {
    await owner.getByLabel("Role", { exact: true }).selectOption("viewer");
    await owner.getByRole("button", { name: "Create invitation link" }).click();
    const link = owner.getByRole("region", { name: "New invitation link" }).locator(".invitation-link");
    await expect.poll(() => link.textContent()).not.toBe(invitations.viewer);
    await viewer.goto((await link.textContent())!);
    await viewer.getByRole("button", { name: "Accept" }).click();
    await expect.poll(() => main(viewer).getByRole("alert").textContent()).toBe("You are already a member of this workspace.");
  });

  test("the member shortens a link in the workspace and may edit it", async () => {
    await member.goto(`${app!.url}/#/`);
    // Accepting chose the workspace, and the choice holds across pages.
    await expect.poll(() => member.getByLabel("Workspace").inputValue()).toBe(workspaceId);
    await member.getByLabel("Long URL").fill(target!.url);
    await member.getByRole("button", { name: "Shorten" }).click();
    const link = member.getByRole("region", { name: "Your short link" }).getByRole("link").first();
    await expect.poll(() => link.textContent()).toMatch(/^http/);
    code = new URL((await link.textContent())!).pathname.slice(1);
    await member.goto(`${app!.url}/#/links`);
    await expect.poll(() => main(member).getByRole("heading", { level: 1 }).textContent()).toBe("Team Rocket: links");
    await expect.poll(() => main(member).getByRole("button", { name: `Edit ${code}` }).count()).toBe(1);
    // A click for the analytics the viewer reads.
    expect((await fetch(`${app!.url}/${code}`, { headers: { accept: "text/html" }, redirect: "manual" })).status).toBe(302);
  });

  test("the viewer sees the link and its analytics, without edit controls or a create form", async () => {
    await viewer.goto(`${app!.url}/#/links`);
    const item = main(viewer).getByRole("listitem").filter({ has: viewer.getByRole("link", { name: `${app!.url}/${code}`, exact: true }) });
    await expect.poll(() => item.count()).toBe(1);
    expect(await item.getByRole("button", { name: `Edit ${code}` }).count()).toBe(0);
    expect(await item.getByRole("button", { name: `Delete ${code}` }).count()).toBe(0);
    await screenshot(viewer, "workspace-viewer-links");

    await item.getByRole("link", { name: `Stats of ${code}` }).click();
    await expect.poll(() => viewer.getByRole("img", { name: /^1 click/ }).count()).toBe(1);
    expect(await main(viewer).getByRole("alert").count()).toBe(0);

    await viewer.goto(`${app!.url}/#/`);
    await expect.poll(() => main(viewer).textContent()).toContain("You are a viewer in Team Rocket");
    expect(await viewer.getByLabel("Long URL").count()).toBe(0);
  });

  test("the owner removes the member, whose next page load no longer shows the workspace's links", async () => {
    // Loaded afresh: the page showed the members of before anyone accepted.
    await owner.reload();
    const row = main(owner).locator(`li[data-user-id="${memberId}"]`);
    // Named by email, from GET /workspaces/:id/people.
    await expect.poll(() => row.textContent()).toContain(emails.member);
    await row.getByRole("button", { name: `Remove ${emails.member}` }).click();
    await row.getByRole("button", { name: "Remove", exact: true }).click();
    await expect.poll(() => main(owner).locator(`li[data-user-id="${memberId}"]`).count()).toBe(0);

    await member.reload();
    await expect.poll(() => main(member).getByRole("heading", { level: 1 }).textContent()).toBe("My links");
    await expect.poll(() => member.getByLabel("Workspace").locator("option").allTextContents()).toEqual([expect.stringMatching(/personal/i)]);
    expect(await main(member).getByRole("link", { name: `${app!.url}/${code}`, exact: true }).count()).toBe(0);
  });

  test("the owner hands the workspace to the viewer and becomes an admin: no Delete, a Leave button", async () => {
    const viewerRow = main(owner).locator("li.member").filter({ hasNot: owner.getByText("You", { exact: true }) });
    await expect.poll(() => viewerRow.count()).toBe(1);
    const viewerId = (await viewerRow.getAttribute("data-user-id"))!;
    await expect.poll(() => viewerRow.textContent()).toContain(emails.viewer);
    await viewerRow.getByRole("button", { name: `Make ${emails.viewer} the owner` }).click();
    await viewerRow.getByRole("button", { name: "Make owner", exact: true }).click();
    await expect.poll(() => main(owner).textContent()).toContain("Your role: Admin");
    expect(await main(owner).getByRole("button", { name: /^Delete / }).count()).toBe(0);
    expect(await main(owner).getByRole("button", { name: "Leave Team Rocket" }).isVisible()).toBe(true);
    // An admin manages members and viewers only: the new owner's row has no controls.
    expect(await main(owner).locator(`li[data-user-id="${viewerId}"]`).getByRole("button").count()).toBe(0);
    await screenshot(owner, "workspace-after-transfer");
  });
});
