-- One report per UTC day, written by the daily-report job; a rerun replaces it.
CREATE TABLE daily_reports (
  date DATE PRIMARY KEY,
  urls_created INTEGER NOT NULL,
  -- All-time clicks when the report was generated: clicks are not recorded per day.
  total_clicks BIGINT NOT NULL,
  -- [{code, originalUrl, clicks}], most-clicked first.
  top_codes JSONB NOT NULL,
  generated_at TIMESTAMPTZ NOT NULL
);
