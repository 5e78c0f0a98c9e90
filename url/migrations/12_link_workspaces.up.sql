-- The workspace a link belongs to (an id of the workspaces service); null for an anonymous
-- link. Until workspaces, a signed-in user's links were theirs alone: they move into the
-- user's personal workspace, whose id is the user's id. Never updated afterwards, so the
-- index below costs the click flush's HOT updates nothing.
ALTER TABLE urls ADD COLUMN workspace_id TEXT;
UPDATE urls SET workspace_id = created_by WHERE created_by IS NOT NULL;
-- GET /links pages through one workspace's links, newest first.
CREATE INDEX urls_workspace_id_idx ON urls (workspace_id, id DESC) WHERE workspace_id IS NOT NULL;
