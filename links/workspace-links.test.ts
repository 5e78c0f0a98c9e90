// Links of a team workspace, as its members see them: a member creates and edits them, a
// viewer reads them and their analytics but changes nothing, a removed member loses them at
// once, and someone outside the workspace is told nothing (404). Personal links keep their
// rules from before workspaces: another account's is 403.
import { describe, expect, test } from "vitest";
import { analytics, links, url, users, workspaces } from "~encore/clients";
import { apiKeyScopes } from "../access/scopes";
import { db } from "./db";

type Account = { id: string; email: string };
const as = (user: Account) => ({
  authData: { userID: user.id, email: user.email, admin: false, credential: "login" as const, scopes: [...apiKeyScopes], credentialsVersion: 0 },
});

let n = 0;
async function signUp(): Promise<Account> {
  n += 1;
  return users.create({ email: `wl${n}-${Date.now()}@example.com`, name: `Teammate ${n}`, age: 30, password: "a fine password" });
}

async function join(owner: Account, workspaceId: string, account: Account, role: "admin" | "member" | "viewer") {
  const { token } = await workspaces.invite({ id: workspaceId, role }, as(owner));
  await workspaces.acceptInvite({ token }, as(account));
}

describe("a team workspace's links", () => {
  test("a member creates and edits them, a viewer reads them and their analytics but cannot change them, an outsider gets 404", async () => {
    const [ada, bob, cy, eve] = [await signUp(), await signUp(), await signUp(), await signUp()];
    const ws = await workspaces.createWorkspace({ name: "Marketing" }, as(ada));
    await join(ada, ws.id, bob, "member");
    await join(ada, ws.id, cy, "viewer");

    const { code } = await links.shorten({ url: "https://team.example/launch", workspaceId: ws.id }, as(bob));
    expect((await links.updateLink({ code, title: "Launch" }, as(bob))).title).toBe("Launch");
    expect((await links.updateLink({ code, description: "by the owner" }, as(ada))).description).toBe("by the owner");

    expect((await links.getLink({ code }, as(cy))).originalUrl).toBe("https://team.example/launch");
    expect((await links.listLinks({ workspaceId: ws.id }, as(cy))).links.map((l) => l.code)).toEqual([code]);
    expect((await analytics.linkAnalytics({ code }, as(cy))).totals).toEqual({ all: 0, humans: 0, bots: 0 });
    await expect(links.updateLink({ code, title: "Mine" }, as(cy))).rejects.toMatchObject({ code: "permission_denied" });
    await expect(links.deleteLink({ code }, as(cy))).rejects.toMatchObject({ code: "permission_denied" });
    await expect(links.shorten({ url: "https://team.example/viewer", workspaceId: ws.id }, as(cy))).rejects.toMatchObject({ code: "permission_denied" });

    await expect(links.getLink({ code }, as(eve))).rejects.toMatchObject({ code: "not_found" });
    await expect(links.updateLink({ code, title: "x" }, as(eve))).rejects.toMatchObject({ code: "not_found" });
    await expect(links.listLinks({ workspaceId: ws.id }, as(eve))).rejects.toMatchObject({ code: "not_found" });
    await expect(analytics.linkAnalytics({ code }, as(eve))).rejects.toMatchObject({ code: "not_found" });
    await expect(links.shorten({ url: "https://team.example/outsider", workspaceId: ws.id }, as(eve))).rejects.toMatchObject({ code: "not_found" });

    // Team links are not in anyone's personal list.
    expect((await links.listLinks({}, as(bob))).links.map((l) => l.code)).not.toContain(code);
  });

  test("a removed member loses the workspace's links at once; the links stay the workspace's", async () => {
    const [ada, bob] = [await signUp(), await signUp()];
    const ws = await workspaces.createWorkspace({ name: "Sales" }, as(ada));
    await join(ada, ws.id, bob, "member");
    const { code } = await links.shorten({ url: "https://team.example/quarter", workspaceId: ws.id }, as(bob));
    await workspaces.removeFromWorkspace({ id: ws.id, userId: bob.id }, as(ada));
    await expect(links.getLink({ code }, as(bob))).rejects.toMatchObject({ code: "not_found" });
    await expect(links.deleteLink({ code }, as(bob))).rejects.toMatchObject({ code: "not_found" });
    await links.deleteLink({ code }, as(ada));
    expect((await links.getLink({ code }, as(ada))).status).toBe("deleted");
  });

  test("personal links keep their rules: another account's is 403, and an anonymous caller names no workspace", async () => {
    const [ada, bob] = [await signUp(), await signUp()];
    const { code } = await links.shorten({ url: "https://personal.example/mine" }, as(ada));
    expect((await links.listLinks({}, as(ada))).links.map((l) => l.code)).toEqual([code]);
    expect((await links.listLinks({ workspaceId: ada.id }, as(ada))).links.map((l) => l.code)).toEqual([code]);
    await expect(links.getLink({ code }, as(bob))).rejects.toMatchObject({ code: "permission_denied" });
    await expect(links.deleteLink({ code }, as(bob))).rejects.toMatchObject({ code: "permission_denied" });
    await expect(links.listLinks({ workspaceId: ada.id }, as(bob))).rejects.toMatchObject({ code: "not_found" });
    await expect(links.shorten({ url: "https://personal.example/anon", workspaceId: ada.id })).rejects.toMatchObject({ code: "unauthenticated" });
  });

  test("a team password link's stats are open to every member without the password, to no one else, and to a removed member no more", async () => {
    const [ada, bob, cy, eve] = [await signUp(), await signUp(), await signUp(), await signUp()];
    const ws = await workspaces.createWorkspace({ name: "Secrets" }, as(ada));
    await join(ada, ws.id, bob, "member");
    await join(ada, ws.id, cy, "viewer");
    const { code } = await links.shorten({ url: "https://team.example/hidden", password: "team pw", workspaceId: ws.id }, as(bob));
    expect((await url.stats({ code }, as(cy))).originalUrl).toBe("https://team.example/hidden");
    expect((await url.stats({ code }, as(ada))).originalUrl).toBe("https://team.example/hidden");
    await expect(url.stats({ code }, as(eve))).rejects.toMatchObject({ code: "unauthenticated" });
    // Its creator, once removed, is an outsider like any other.
    await workspaces.removeFromWorkspace({ id: ws.id, userId: bob.id }, as(ada));
    await expect(url.stats({ code }, as(bob))).rejects.toMatchObject({ code: "unauthenticated" });
  });

  test("/me/urls lists the caller's personal workspace: a link made in a team one is the team's", async () => {
    const [ada, bob] = [await signUp(), await signUp()];
    const ws = await workspaces.createWorkspace({ name: "Shared" }, as(ada));
    await join(ada, ws.id, bob, "member");
    const mine = await links.shorten({ url: "https://personal.example/bob" }, as(bob));
    await links.shorten({ url: "https://team.example/by-bob", workspaceId: ws.id }, as(bob));
    expect((await links.myUrls({}, as(bob))).urls.map((u) => u.code)).toEqual([mine.code]);
    await workspaces.removeFromWorkspace({ id: ws.id, userId: bob.id }, as(ada));
    expect((await links.myUrls({}, as(bob))).urls.map((u) => u.code)).toEqual([mine.code]);
  });

  test("bulk creation goes into the workspace named, for a member; a viewer's is refused whole", async () => {
    const [ada, cy] = [await signUp(), await signUp()];
    const ws = await workspaces.createWorkspace({ name: "Ops" }, as(ada));
    await join(ada, ws.id, cy, "viewer");
    const { results } = await links.bulkShorten({ items: [{ url: "https://bulk.example/1" }, { url: "https://bulk.example/2" }], workspaceId: ws.id }, as(ada));
    const codes = results.map((r) => ("code" in r ? r.code : ""));
    expect((await links.listLinks({ workspaceId: ws.id }, as(cy))).links.map((l) => l.code).sort()).toEqual([...codes].sort());
    await expect(links.bulkShorten({ items: [{ url: "https://bulk.example/3" }], workspaceId: ws.id }, as(cy))).rejects.toMatchObject({ code: "permission_denied" });
  });
});

describe("links stored by an instance that knows nothing of workspaces", () => {
  test("a signed-in user's link inserted without a workspace (the previous release, mid-upgrade) goes into their personal one", async () => {
    const ada = await signUp();
    const code = `pre${Date.now().toString(36)}`;
    await db.exec`INSERT INTO urls (code, original_url, created_by) VALUES (${code}, 'https://old.example/release', ${ada.id})`;
    expect((await links.listLinks({}, as(ada))).links.map((l) => l.code)).toEqual([code]);
    const row = await db.queryRow<{ workspace_id: string | null }>`SELECT workspace_id FROM urls WHERE code = ${code}`;
    expect(row!.workspace_id).toBe(ada.id);
  });
});
