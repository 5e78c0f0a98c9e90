CREATE TABLE accounts (
  account TEXT PRIMARY KEY,
  balance NUMERIC NOT NULL DEFAULT 0,
  last_seq INTEGER NOT NULL DEFAULT 0,
  -- Entries handled after a later one of the same account: stays 0 when delivery keeps order.
  out_of_order INTEGER NOT NULL DEFAULT 0
);
