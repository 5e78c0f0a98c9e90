-- Events of stored short URLs not yet handed to pub/sub. Written in the same
-- statement as the urls row, so no acknowledged shorten can lose its event.
CREATE TABLE url_shortened_outbox (
  id BIGSERIAL PRIMARY KEY,
  code TEXT NOT NULL,
  original_url TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);
