// Limits on checking custom domains (the links service's POST /workspaces/:id/domains/:host/check),
// per workspace: each check is an outbound HTTP request from this instance.
import { limitSetting, secondsSetting } from "./limiter/env";
import { Limiter, refusedPast } from "./limiter/limiter";
import type { RedisOption } from "./limiter/redis";

type Env = Readonly<Record<string, string | undefined>>;

export interface DomainCheckLimitsConfig {
  /** Checks one workspace may run per window, all its domains together; null: no limit. */
  readonly perWorkspace: number | null;
  readonly windowSeconds: number;
}

/**
 * Defaults: 30 checks per workspace in an hour. Setting up a domain takes a few checks
 * while DNS and the proxy are put right, a few more for a second domain; a script asking
 * the instance to fetch from others' servers over and over gets 30 an hour. Counted per
 * workspace, for the domains are the workspace's and any of its managers may check them.
 */
export function parseDomainCheckLimits(env: Env): DomainCheckLimitsConfig {
  return Object.freeze({
    perWorkspace: limitSetting(env, "DOMAIN_CHECK_LIMIT_PER_WORKSPACE", 30),
    windowSeconds: secondsSetting(env, "DOMAIN_CHECK_LIMIT_WINDOW_SECONDS", 3600, 7 * 24 * 3600),
  });
}

/** The counter of domain checks; one per process. */
export class DomainCheckLimits {
  readonly config: DomainCheckLimitsConfig;
  readonly #byWorkspace: Limiter | null;

  constructor(config: DomainCheckLimitsConfig, redis?: RedisOption) {
    this.config = config;
    this.#byWorkspace =
      config.perWorkspace === null
        ? null
        : new Limiter({ name: "domain-checks:workspace", points: config.perWorkspace, durationSeconds: config.windowSeconds, redis });
  }

  /** Counts one check in `workspaceId`; 429 resource_exhausted (with retryAfterSeconds) past the limit. */
  async count(workspaceId: string): Promise<void> {
    const byWorkspace = this.#byWorkspace;
    if (byWorkspace === null) return;
    await refusedPast("too many domain checks in this workspace", () => byWorkspace.consume(workspaceId));
  }
}

/** The app's domain check limits, from the environment at start. */
export const domainCheckLimits = new DomainCheckLimits(parseDomainCheckLimits(process.env));
