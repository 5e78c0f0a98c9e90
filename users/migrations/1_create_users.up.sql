CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Kept as given at sign-up; unique regardless of case (the index below).
  email text NOT NULL,
  name text NOT NULL,
  age integer NOT NULL,
  -- Self-describing scrypt hash: scrypt$N$r$p$salt$key (base64). Never the password.
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Sign-up and login look emails up by lower(email): one index serves both and makes
-- "Ann@x.io" and "ann@x.io" the same account.
CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));
