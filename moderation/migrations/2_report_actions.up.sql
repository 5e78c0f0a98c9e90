-- Working through the queue of reported links is an action too: the reports of a link
-- dismissed (the link left as it is), or upheld (the link disabled, recorded as
-- disable_link beside it).
ALTER TABLE actions DROP CONSTRAINT actions_action_check;
ALTER TABLE actions ADD CONSTRAINT actions_action_check CHECK (action IN (
  'disable_link', 'enable_link', 'ban_host', 'unban_host', 'disable_account', 'enable_account',
  'dismiss_reports', 'uphold_reports'));
