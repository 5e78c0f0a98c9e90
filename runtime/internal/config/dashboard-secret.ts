import { randomBytes } from "node:crypto";
import { ConfigError } from "./values.ts";

/**
 * How `run` hands the development dashboard's secret to each app it starts: an environment
 * variable, which the child inherits and which only its own account (and root) can read in
 * /proc, where arguments are shown to every account by `ps`. Not for users to set.
 */
export const dashboardSecretVariable = "ENCORE_SELFHOST_DASHBOARD_SECRET";

/** A new secret: 32 random bytes, base64url. `run` draws one each time it starts. */
export function newDashboardSecret(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Reads the secret `run` handed over, and removes it from `env`, so that processes the app
 * starts do not inherit it. Null when it is not set.
 */
export function takeDashboardSecret(env: NodeJS.ProcessEnv): string | null {
  const raw = env[dashboardSecretVariable];
  delete env[dashboardSecretVariable];
  if (raw === undefined || raw === "") return null;
  if (!/^[A-Za-z0-9_-]{32,}$/.test(raw)) {
    throw new ConfigError(dashboardSecretVariable, "must be at least 32 characters of A-Z, a-z, 0-9, - and _ (encore-selfhost run sets it)");
  }
  return raw;
}
