import { api, APIError } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { workspaces } from "~encore/clients";
import { requireLogin } from "../access/scopes";
import { peopleOf } from "./accounts/account-search";

export interface WorkspacePeopleRequest {
  id: string;
}

export interface Person {
  userId: string;
  name: string;
  email: string;
}

export interface WorkspacePeople {
  /** The workspace's members as their accounts are now, the owner first. */
  people: Person[];
}

/**
 * Who the members of a workspace are, for its members: each one's name and email, so that a
 * team page can say who someone is (GET /workspaces/:id/members gives their ids and roles).
 * Teammates see each other's email, as on any team. A workspace the caller is not in is
 * 404, as the workspaces service answers it; login tokens only, as for its other endpoints.
 */
export const workspacePeople = api(
  { expose: true, auth: true, method: "GET", path: "/workspaces/:id/people" },
  async ({ id }: WorkspacePeopleRequest): Promise<WorkspacePeople> => {
    requireLogin("read a workspace's members");
    const { role } = await workspaces.roleIn({ workspaceId: id, userId: getAuthData()!.userID });
    if (role === undefined) throw APIError.notFound("workspace not found");
    const { userIds } = await workspaces.memberIds({ id });
    const accounts = new Map((await peopleOf(userIds)).map((a) => [a.id, a]));
    return {
      people: userIds.flatMap((userId) => {
        const account = accounts.get(userId);
        return account ? [{ userId, name: account.name, email: account.email }] : [];
      }),
    };
  },
);
