import { chmodSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A new temporary folder that other accounts may pass through (mode 0755, where
 * mkdtemp makes 0700): under root, the embedded PostgreSQL runs as the account
 * "postgres", which must reach a cluster created inside it.
 */
export function tempDataDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}
