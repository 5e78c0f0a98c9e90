import { workspaces } from "~encore/clients";
import { keyWorkspace } from "../../access/scopes";
import type { LinkStats } from "./reader";

/**
 * Whether a signed-in caller sees a password link's stats without its password: any member
 * of the link's workspace (a viewer too: stats are a read), asked of the workspaces service
 * at each read so that a removed member is refused at once. Links without a password have
 * public stats and cost no call; a personal workspace's id is its owner's, so its owner
 * needs none either.
 */
export async function readsWithoutPassword(link: Pick<LinkStats, "passwordHash" | "workspaceId">, userID: string | undefined): Promise<boolean> {
  if (link.passwordHash === null || userID === undefined || link.workspaceId === null) return false;
  // An API key made for another workspace sees what an outsider sees.
  const bound = keyWorkspace();
  if (bound !== undefined && bound !== link.workspaceId) return false;
  if (link.workspaceId === userID) return true;
  return (await workspaces.roleIn({ workspaceId: link.workspaceId, userId: userID })).role !== undefined;
}
