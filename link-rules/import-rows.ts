// A row of an import file as the transfers service reads it and the links service stores
// it: the one shape both speak (the transfers service maps each source's columns to it).

/** One row of an import file, as the transfers service read it: what POST /shorten takes, and what only an import may carry. */
export interface ImportRow {
  /** The row's line in its file (1: the first line), named in its error. */
  line: number;
  url: string;
  alias?: string;
  title?: string;
  description?: string;
  tags?: string[];
  /** ISO 8601; in the future, as for POST /shorten. */
  expiresAt?: string;
  maxClicks?: number;
  /** ISO 8601; when the source made the link; not in the future. Default: now. */
  createdAt?: string;
  /** Clicks the source counted: the link's stored total starts there. */
  clicks?: number;
  /** A password in clear, hashed here. */
  password?: string;
  /** A stored hash of this app's (scrypt$N$r$p$salt$key, with the parameters it makes new ones with), as a JSON export carries it for the workspace's owner and admins. */
  passwordHash?: string;
  /** A custom domain's host: a verified domain of the workspace imported into, else the row is refused. */
  domain?: string;
  redirectType?: number;
  forwardQuery?: boolean;
  /** ISO 8601; any instant, before expiresAt when both are given. */
  startsAt?: string;
  fallbackUrl?: string;
  allowIndexing?: boolean;
  /**
   * The targeting rules as JSON text: a list of rules as POST /shorten takes them, with their
   * ids. Text rather than a typed list because the links service's request is checked against
   * its schema before it runs: a file's malformed rule would refuse the whole batch there,
   * where the links service's own check refuses only its row, saying what POST /shorten says.
   */
  rules?: string;
  preview?: ImportPreview;
}

/** A link's preview as an import carries it: what POST /shorten's preview takes. */
export interface ImportPreview {
  title?: string;
  description?: string;
  image?: string;
}
