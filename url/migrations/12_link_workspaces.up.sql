-- The workspace a link belongs to (an id of the workspaces service); null for an anonymous
-- link. Until workspaces, a signed-in user's links were theirs alone: they move into the
-- user's personal workspace, whose id is the user's id. Never updated afterwards, so the
-- index below costs the click flush's HOT updates nothing.
ALTER TABLE urls ADD COLUMN workspace_id TEXT;
UPDATE urls SET workspace_id = created_by WHERE created_by IS NOT NULL;
-- GET /links pages through one workspace's links, newest first.
CREATE INDEX urls_workspace_id_idx ON urls (workspace_id, id DESC) WHERE workspace_id IS NOT NULL;

-- A link stored without a workspace by a signed-in user goes into their personal one: during
-- a rolling upgrade the instances still running the previous release store links knowing
-- nothing of workspaces, and those links must not become nobody's.
CREATE FUNCTION urls_personal_workspace() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.workspace_id := COALESCE(NEW.workspace_id, NEW.created_by);
  RETURN NEW;
END $$;
CREATE TRIGGER urls_personal_workspace BEFORE INSERT ON urls
  FOR EACH ROW WHEN (NEW.workspace_id IS NULL AND NEW.created_by IS NOT NULL)
  EXECUTE FUNCTION urls_personal_workspace();
