import { Service } from "encore.dev/service";

// Workspaces: where a team's records belong. Every account has a personal workspace and
// may create team workspaces, invite people to them with a role (owner, admin, member,
// viewer: access/workspace-roles.ts), and leave them. Other services ask `roleIn` who may
// do what with a workspace's records, at every request, so a removal holds at once on
// every instance.
export default new Service("workspaces");
