-- Every action an administrator took, recorded once it succeeded. Never updated or
-- deleted by the app: it is the audit log.
CREATE TABLE actions (
  id BIGSERIAL PRIMARY KEY,
  -- Who: the administrator's user id, and email as it was then (an account may go).
  actor_id TEXT NOT NULL,
  actor_email TEXT NOT NULL,
  action TEXT NOT NULL CHECK (action IN (
    'disable_link', 'enable_link', 'ban_host', 'unban_host', 'disable_account', 'enable_account')),
  -- A link's code, a host, or an account's user id.
  target TEXT NOT NULL,
  reason TEXT,
  at TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- GET /admin/actions pages newest first by id, the primary key's index.
