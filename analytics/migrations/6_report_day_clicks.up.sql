-- The daily report gains the day's clicks by people and its top referrers (from the url
-- service's click analytics). Reports made before have none: 0 and an empty list.
ALTER TABLE daily_reports
  ADD COLUMN human_clicks BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN top_referrers JSONB NOT NULL DEFAULT '[]'::jsonb;
