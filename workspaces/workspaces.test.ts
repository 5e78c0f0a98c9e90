import { describe, expect, test } from "vitest";
import { users, workspaces } from "~encore/clients";
import { apiKeyScopes } from "../access/scopes";
import { db } from "./db";

type Account = { id: string; email: string };
const as = (user: Account, credential: "login" | "api-key" = "login") => ({
  authData: { userID: user.id, email: user.email, admin: false, credential, scopes: [...apiKeyScopes], credentialsVersion: 0 },
});

let n = 0;
async function signUp(): Promise<Account> {
  n += 1;
  return users.create({ email: `ws${n}-${Date.now()}@example.com`, name: `Workspace ${n}`, age: 30, password: "a fine password" });
}

/** A team workspace of `owner`'s with `invited` joined as the given roles. */
async function team(owner: Account, invited: [Account, "admin" | "member" | "viewer"][] = []) {
  const ws = await workspaces.createWorkspace({ name: "  Team  " }, as(owner));
  for (const [account, role] of invited) {
    const { token } = await workspaces.invite({ id: ws.id, role }, as(owner));
    await workspaces.acceptInvite({ token }, as(account));
  }
  return ws;
}

const roleIn = async (workspaceId: string, user: Account) => (await workspaces.roleIn({ workspaceId, userId: user.id })).role;

describe("workspaces", () => {
  test("every account has a personal workspace, its own id, listed first; a team workspace is its creator's", async () => {
    const ada = await signUp();
    const ws = await team(ada);
    expect(ws).toMatchObject({ name: "Team", personal: false, role: "owner" });
    const { workspaces: list } = await workspaces.listWorkspaces(as(ada));
    expect(list.map((w) => [w.id, w.personal, w.role])).toEqual([
      [ada.id, true, "owner"],
      [ws.id, false, "owner"],
    ]);
    expect(await roleIn(ada.id, ada)).toBe("owner");
  });

  test("a non-member gets 404 for a workspace, the same as for one that does not exist", async () => {
    const [ada, eve] = [await signUp(), await signUp()];
    const ws = await team(ada);
    for (const id of [ws.id, "00000000-0000-0000-0000-000000000000", "not-a-uuid"]) {
      await expect(workspaces.getWorkspace({ id }, as(eve))).rejects.toMatchObject({ code: "not_found" });
      await expect(workspaces.listMembers({ id }, as(eve))).rejects.toMatchObject({ code: "not_found" });
    }
    await expect(workspaces.getWorkspace({ id: ada.id }, as(eve))).rejects.toMatchObject({ code: "not_found" });
    expect(await roleIn(ws.id, eve)).toBeUndefined();
  });

  test("invited people join with their role; a viewer and a member cannot manage, an admin cannot make admins", async () => {
    const [ada, bob, cy, dee] = [await signUp(), await signUp(), await signUp(), await signUp()];
    const ws = await team(ada, [[bob, "member"], [cy, "viewer"], [dee, "admin"]]);
    const { members } = await workspaces.listMembers({ id: ws.id }, as(cy));
    expect(members.map((m) => [m.userId, m.role])).toEqual([
      [ada.id, "owner"],
      [dee.id, "admin"],
      [bob.id, "member"],
      [cy.id, "viewer"],
    ]);
    await expect(workspaces.renameWorkspace({ id: ws.id, name: "Mine" }, as(cy))).rejects.toMatchObject({ code: "permission_denied" });
    await expect(workspaces.invite({ id: ws.id, role: "viewer" }, as(bob))).rejects.toMatchObject({ code: "permission_denied" });
    await expect(workspaces.invite({ id: ws.id, role: "admin" }, as(dee))).rejects.toMatchObject({ code: "permission_denied" });
    await expect(workspaces.changeRole({ id: ws.id, userId: bob.id, role: "admin" }, as(dee))).rejects.toMatchObject({ code: "permission_denied" });
    expect(await workspaces.changeRole({ id: ws.id, userId: cy.id, role: "member" }, as(dee))).toMatchObject({ userId: cy.id, role: "member" });
    await expect(workspaces.removeFromWorkspace({ id: ws.id, userId: ada.id }, as(dee))).rejects.toMatchObject({ code: "permission_denied" });
    expect((await workspaces.renameWorkspace({ id: ws.id, name: " Renamed " }, as(dee))).name).toBe("Renamed");
  });

  test("a removed member has no role at once, and a member who leaves too; the owner cannot leave", async () => {
    const [ada, bob, cy] = [await signUp(), await signUp(), await signUp()];
    const ws = await team(ada, [[bob, "member"], [cy, "viewer"]]);
    expect(await roleIn(ws.id, bob)).toBe("member");
    await workspaces.removeFromWorkspace({ id: ws.id, userId: bob.id }, as(ada));
    expect(await roleIn(ws.id, bob)).toBeUndefined();
    await expect(workspaces.getWorkspace({ id: ws.id }, as(bob))).rejects.toMatchObject({ code: "not_found" });
    await workspaces.removeFromWorkspace({ id: ws.id, userId: cy.id }, as(cy));
    expect(await roleIn(ws.id, cy)).toBeUndefined();
    await expect(workspaces.removeFromWorkspace({ id: ws.id, userId: ada.id }, as(ada))).rejects.toMatchObject({ code: "failed_precondition" });
  });

  test("ownership is transferred to a member, whose old owner becomes an admin; only then may the old owner leave", async () => {
    const [ada, bob, eve] = [await signUp(), await signUp(), await signUp()];
    const ws = await team(ada, [[bob, "member"]]);
    await expect(workspaces.transferWorkspace({ id: ws.id, userId: eve.id }, as(ada))).rejects.toMatchObject({ code: "not_found" });
    await expect(workspaces.transferWorkspace({ id: ws.id, userId: ada.id }, as(bob))).rejects.toMatchObject({ code: "permission_denied" });
    expect((await workspaces.transferWorkspace({ id: ws.id, userId: bob.id }, as(ada))).role).toBe("admin");
    expect(await roleIn(ws.id, bob)).toBe("owner");
    await workspaces.removeFromWorkspace({ id: ws.id, userId: ada.id }, as(ada));
    expect(await roleIn(ws.id, ada)).toBeUndefined();
  });

  test("an invitation is good once, until it expires or is revoked; its token is stored only as a hash", async () => {
    const [ada, bob, cy, dee] = [await signUp(), await signUp(), await signUp(), await signUp()];
    const ws = await team(ada);
    const first = await workspaces.invite({ id: ws.id, role: "member" }, as(ada));
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await db.queryAll<{ token_hash: string }>`SELECT token_hash FROM invitations WHERE workspace_id = ${ws.id}::uuid`;
    expect(JSON.stringify(stored)).not.toContain(first.token);
    await workspaces.acceptInvite({ token: first.token }, as(bob));
    await expect(workspaces.acceptInvite({ token: first.token }, as(cy))).rejects.toMatchObject({ code: "not_found" });

    const expiring = await workspaces.invite({ id: ws.id, role: "viewer" }, as(ada));
    await db.exec`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = ${expiring.id}::uuid`;
    await expect(workspaces.acceptInvite({ token: expiring.token }, as(cy))).rejects.toMatchObject({ code: "not_found" });

    const revoked = await workspaces.invite({ id: ws.id, role: "viewer" }, as(ada));
    expect((await workspaces.listInvitations({ id: ws.id }, as(ada))).invitations.map((i) => i.id)).toEqual([revoked.id]);
    await workspaces.revoke({ id: ws.id, invitationId: revoked.id }, as(ada));
    await expect(workspaces.acceptInvite({ token: revoked.token }, as(dee))).rejects.toMatchObject({ code: "not_found" });

    const again = await workspaces.invite({ id: ws.id, role: "viewer" }, as(ada));
    await expect(workspaces.acceptInvite({ token: again.token }, as(bob))).rejects.toMatchObject({ code: "already_exists" });
    expect((await workspaces.acceptInvite({ token: again.token }, as(cy))).role).toBe("viewer");
  });

  test("a personal workspace takes no one else and cannot be deleted; a team one is deleted by its owner only", async () => {
    const [ada, bob] = [await signUp(), await signUp()];
    await expect(workspaces.invite({ id: ada.id, role: "member" }, as(ada))).rejects.toMatchObject({ code: "failed_precondition" });
    await expect(workspaces.removeWorkspace({ id: ada.id }, as(ada))).rejects.toMatchObject({ code: "failed_precondition" });
    const ws = await team(ada, [[bob, "admin"]]);
    await expect(workspaces.removeWorkspace({ id: ws.id }, as(bob))).rejects.toMatchObject({ code: "permission_denied" });
    await workspaces.removeWorkspace({ id: ws.id }, as(ada));
    expect(await roleIn(ws.id, bob)).toBeUndefined();
    expect((await workspaces.listWorkspaces(as(bob))).workspaces.map((w) => w.id)).toEqual([bob.id]);
  });

  test("bad input is 400 and an API key is refused whatever its scopes", async () => {
    const ada = await signUp();
    await expect(workspaces.createWorkspace({ name: "   " }, as(ada))).rejects.toMatchObject({ code: "invalid_argument" });
    await expect(workspaces.createWorkspace({ name: "x".repeat(101) }, as(ada))).rejects.toMatchObject({ code: "invalid_argument" });
    const ws = await team(ada);
    await expect(workspaces.invite({ id: ws.id, role: "owner" }, as(ada))).rejects.toMatchObject({ code: "invalid_argument" });
    await expect(workspaces.invite({ id: ws.id, role: "boss" }, as(ada))).rejects.toMatchObject({ code: "invalid_argument" });
    await expect(workspaces.listWorkspaces(as(ada, "api-key"))).rejects.toMatchObject({ code: "permission_denied" });
    await expect(workspaces.createWorkspace({ name: "Keyed" }, as(ada, "api-key"))).rejects.toMatchObject({ code: "permission_denied" });
  });
});
