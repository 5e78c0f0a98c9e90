-- A workspace: where a team's records (links, tags) belong. A personal workspace has its
-- owner's user id as its id, and never another member.
CREATE TABLE workspaces (
  id UUID PRIMARY KEY,
  name TEXT NOT NULL,
  personal BOOLEAN NOT NULL DEFAULT false,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Who belongs to a workspace, and as what (access/workspace-roles.ts).
CREATE TABLE members (
  workspace_id UUID NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  user_id UUID NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
  joined_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, user_id)
);
-- GET /workspaces: a user's workspaces.
CREATE INDEX members_user_id_idx ON members (user_id);
-- One owner per workspace; a transfer swaps roles in one transaction.
CREATE UNIQUE INDEX members_one_owner_idx ON members (workspace_id) WHERE role = 'owner';

-- An invitation: a secret link an owner or admin shares, good for one use until it expires.
-- Only the token's SHA-256 is kept.
CREATE TABLE invitations (
  id UUID PRIMARY KEY,
  workspace_id UUID NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL CHECK (role IN ('admin', 'member', 'viewer')),
  created_by UUID NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  expires_at TIMESTAMPTZ NOT NULL,
  used_by UUID,
  used_at TIMESTAMPTZ
);
CREATE INDEX invitations_workspace_id_idx ON invitations (workspace_id);
