// A team's members see who the others are (name and email); nobody outside the team does.
import { describe, expect, test } from "vitest";
import { users, workspaces } from "~encore/clients";
import { apiKeyScopes } from "../access/scopes";

type Account = { id: string; email: string; name: string };
const as = (user: Account, credential: "login" | "api-key" = "login") => ({
  authData: { userID: user.id, email: user.email, admin: false, credential, scopes: [...apiKeyScopes], credentialsVersion: 0 },
});

let n = 0;
async function signUp(name: string): Promise<Account> {
  n += 1;
  return users.create({ email: `people${n}-${Date.now()}@example.com`, name, password: "a fine password" });
}

describe("GET /workspaces/:id/people", () => {
  test("names every member to every member, the owner first", async () => {
    const [ada, bob] = [await signUp("Ada"), await signUp("Bob")];
    const ws = await workspaces.createWorkspace({ name: "People" }, as(ada));
    const { token } = await workspaces.invite({ id: ws.id, role: "viewer" }, as(ada));
    await workspaces.acceptInvite({ token }, as(bob));
    const expected = [
      { userId: ada.id, name: "Ada", email: ada.email },
      { userId: bob.id, name: "Bob", email: bob.email },
    ];
    expect((await users.workspacePeople({ id: ws.id }, as(bob))).people).toEqual(expected);
    expect((await users.workspacePeople({ id: ws.id }, as(ada))).people).toEqual(expected);
  });

  test("refused to an outsider (404, as the workspace itself), a removed member, an API key (403) and no caller (401)", async () => {
    const [ada, bob, eve] = [await signUp("Ada"), await signUp("Bob"), await signUp("Eve")];
    const ws = await workspaces.createWorkspace({ name: "Closed" }, as(ada));
    const { token } = await workspaces.invite({ id: ws.id, role: "member" }, as(ada));
    await workspaces.acceptInvite({ token }, as(bob));
    await expect(users.workspacePeople({ id: ws.id }, as(eve))).rejects.toMatchObject({ code: "not_found" });
    await expect(users.workspacePeople({ id: "not-a-uuid" }, as(eve))).rejects.toMatchObject({ code: "not_found" });
    await workspaces.removeFromWorkspace({ id: ws.id, userId: bob.id }, as(ada));
    await expect(users.workspacePeople({ id: ws.id }, as(bob))).rejects.toMatchObject({ code: "not_found" });
    await expect(users.workspacePeople({ id: ws.id }, as(ada, "api-key"))).rejects.toMatchObject({ code: "permission_denied" });
    await expect(users.workspacePeople({ id: ws.id })).rejects.toMatchObject({ code: "unauthenticated" });
  });
});
