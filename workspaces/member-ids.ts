import { api } from "encore.dev/api";
import { isUuid } from "./store/caller";
import { membersOf } from "./store/member-rows";

export interface MemberIdsRequest {
  id: string;
}

export interface MemberIdsResponse {
  /** The members' account ids, the owner first; none for a workspace that does not exist. */
  userIds: string[];
}

/**
 * The members of a workspace, for the users service, which names them to the team (GET
 * /workspaces/:id/people) after asking roleIn whether its caller is one of them. Internal.
 */
export const memberIds = api(
  { expose: false, method: "GET", path: "/internal/workspaces/:id/member-ids" },
  async ({ id }: MemberIdsRequest): Promise<MemberIdsResponse> => {
    if (!isUuid(id)) return { userIds: [] };
    return { userIds: (await membersOf(id)).map((m) => m.userId) };
  },
);
