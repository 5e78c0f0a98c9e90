// API keys belong to a workspace: a key made for a team workspace acts there alone, with its
// maker's role at each request, and a key made without one acts in the personal workspace.
// The binding only ever narrows what the account may do: a team the account is not in stays
// 404, as for the account itself.
import { describe, expect, test } from "vitest";
import { analytics, links, users, workspaces } from "~encore/clients";
import type { ApiKeyScope } from "../access/scopes";
import { apiKeyScopes } from "../access/scopes";

type Account = { id: string; email: string };
const login = (user: Account) => ({
  authData: { userID: user.id, email: user.email, admin: false, credential: "login" as const, scopes: [...apiKeyScopes], credentialsVersion: 0 },
});
/** What the auth handler makes of a key made for `workspaceId` (users' resolveApiKey gives it). */
const key = (user: Account, workspaceId: string, scopes: ApiKeyScope[] = [...apiKeyScopes]) => ({
  authData: { userID: user.id, email: user.email, admin: false, credential: "api-key" as const, scopes, workspaceId, credentialsVersion: 0 },
});

let n = 0;
async function signUp(): Promise<Account> {
  n += 1;
  return users.create({ email: `wk${n}-${Date.now()}@example.com`, name: `Keyholder ${n}`, age: 30, password: "a fine password" });
}

async function join(owner: Account, workspaceId: string, account: Account, role: "member" | "viewer") {
  const { token } = await workspaces.invite({ id: workspaceId, role }, login(owner));
  await workspaces.acceptInvite({ token }, login(account));
}

describe("an API key made for a team workspace", () => {
  test("is made only by a member, says its workspace, and resolves to it", async () => {
    const [ada, eve] = [await signUp(), await signUp()];
    const ws = await workspaces.createWorkspace({ name: "Keys" }, login(ada));
    const made = await users.createApiKey({ name: "team bot", workspaceId: ws.id }, login(ada));
    expect(made.workspaceId).toBe(ws.id);
    expect((await users.resolveApiKey({ key: made.key })).owner?.workspaceId).toBe(ws.id);
    expect((await users.listApiKeys(login(ada))).keys.map((k) => k.workspaceId)).toEqual([ws.id]);
    await expect(users.createApiKey({ name: "intruder", workspaceId: ws.id }, login(eve))).rejects.toMatchObject({ code: "not_found" });
  });

  test("creates and lists links there by default, and cannot reach the account's personal links", async () => {
    const ada = await signUp();
    const ws = await workspaces.createWorkspace({ name: "Bots" }, login(ada));
    const personal = await links.shorten({ url: "https://personal.example/ada" }, login(ada));
    const { code } = await links.shorten({ url: "https://team.example/by-key" }, key(ada, ws.id));
    expect((await links.listLinks({ workspaceId: ws.id }, login(ada))).links.map((l) => l.code)).toEqual([code]);
    expect((await links.listLinks({}, key(ada, ws.id))).links.map((l) => l.code)).toEqual([code]);

    const elsewhere = { code: "permission_denied", message: "this API key acts in another workspace: use a key made for this one" };
    await expect(links.getLink({ code: personal.code }, key(ada, ws.id))).rejects.toMatchObject(elsewhere);
    await expect(links.deleteLink({ code: personal.code }, key(ada, ws.id))).rejects.toMatchObject(elsewhere);
    await expect(links.listLinks({ workspaceId: ada.id }, key(ada, ws.id))).rejects.toMatchObject(elsewhere);
    await expect(links.shorten({ url: "https://personal.example/x", workspaceId: ada.id }, key(ada, ws.id))).rejects.toMatchObject(elsewhere);
    await expect(analytics.linkAnalytics({ code: personal.code }, key(ada, ws.id))).rejects.toMatchObject(elsewhere);
    await expect(links.myUrls({}, key(ada, ws.id))).rejects.toMatchObject(elsewhere);
    await expect(analytics.myClicks({}, key(ada, ws.id))).rejects.toMatchObject(elsewhere);
    // And the personal key cannot reach the team's link.
    await expect(links.getLink({ code }, key(ada, ada.id))).rejects.toMatchObject(elsewhere);
  });

  test("tags, tagging and a tag's analytics: the key's workspace's only", async () => {
    const ada = await signUp();
    const ws = await workspaces.createWorkspace({ name: "Tagged" }, login(ada));
    const personal = await links.shorten({ url: "https://personal.example/tagged", tags: ["mine"] }, login(ada));
    const { tags } = await links.listTags({ id: ada.id }, login(ada));
    const elsewhere = { code: "permission_denied", message: "this API key acts in another workspace: use a key made for this one" };
    await expect(links.listTags({ id: ada.id }, key(ada, ws.id))).rejects.toMatchObject(elsewhere);
    await expect(links.createWorkspaceTag({ id: ada.id, name: "theirs" }, key(ada, ws.id))).rejects.toMatchObject(elsewhere);
    await expect(links.tagLinksInBulk({ workspaceId: ada.id, codes: [personal.code], add: ["x"] }, key(ada, ws.id))).rejects.toMatchObject(elsewhere);
    await expect(analytics.tagAnalytics({ id: ada.id, tagId: tags[0]!.id }, key(ada, ws.id))).rejects.toMatchObject(elsewhere);
    // By default the key tags in its own workspace, where the personal link is not.
    await expect(links.tagLinksInBulk({ codes: [personal.code], add: ["x"] }, key(ada, ws.id))).rejects.toMatchObject({ code: "not_found" });
    expect((await links.listTags({ id: ws.id }, key(ada, ws.id))).tags).toEqual([]);
  });

  test("acts with its maker's role at each request: a viewer's key reads only, a removed maker's key reaches nothing", async () => {
    const [ada, cy] = [await signUp(), await signUp()];
    const ws = await workspaces.createWorkspace({ name: "Watchers" }, login(ada));
    await join(ada, ws.id, cy, "viewer");
    const { code } = await links.shorten({ url: "https://team.example/watched", workspaceId: ws.id }, login(ada));
    expect((await links.getLink({ code }, key(cy, ws.id))).originalUrl).toBe("https://team.example/watched");
    await expect(links.updateLink({ code, title: "by a viewer's key" }, key(cy, ws.id))).rejects.toMatchObject({ code: "permission_denied" });
    await expect(links.shorten({ url: "https://team.example/viewer-key" }, key(cy, ws.id))).rejects.toMatchObject({ code: "permission_denied" });
    await workspaces.removeFromWorkspace({ id: ws.id, userId: cy.id }, login(ada));
    await expect(links.getLink({ code }, key(cy, ws.id))).rejects.toMatchObject({ code: "not_found" });
    await expect(links.listLinks({}, key(cy, ws.id))).rejects.toMatchObject({ code: "not_found" });
  });

  test("a team the account is not in stays 404, binding or not", async () => {
    const [ada, eve] = [await signUp(), await signUp()];
    const ws = await workspaces.createWorkspace({ name: "Closed" }, login(ada));
    const { code } = await links.shorten({ url: "https://team.example/closed", workspaceId: ws.id }, login(ada));
    await expect(links.getLink({ code }, key(eve, eve.id))).rejects.toMatchObject({ code: "not_found" });
    await expect(links.listLinks({ workspaceId: ws.id }, key(eve, eve.id))).rejects.toMatchObject({ code: "not_found" });
  });
});
