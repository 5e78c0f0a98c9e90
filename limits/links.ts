// Limits on creating links, shared by every endpoint that stores one (url's POST /shorten,
// urlb's POST /url): how many per client address and per signed-in user, and which
// target hosts are refused.
import { APIError } from "encore.dev/api";
import ipaddr from "ipaddr.js";
import { limitSetting, secondsSetting } from "./limiter/env";
import { Limiter, refusedPast } from "./limiter/limiter";
import type { RedisOption } from "./limiter/redis";

type Env = Readonly<Record<string, string | undefined>>;

export interface LinkLimitsConfig {
  /** Links an address may create without signing in, per window; null: no limit. */
  readonly perAddress: number | null;
  /** Links a signed-in user may create per window, and all signed-in requests of one address; null: no limit. */
  readonly perUser: number | null;
  readonly windowSeconds: number;
  /** Target hosts refused, with their subdomains: lower-case, IDN as punycode (WHATWG), no trailing dot. */
  readonly deniedHosts: readonly string[];
}

/**
 * Defaults for a public instance. Anonymous: 20 links per address in 10 minutes, more
 * than a person shortens by hand, far fewer than a spam run needs. Signed in: 200 per user,
 * ten times as many, for an account is a known, revocable party and scripts use one. A
 * signed-in request also counts on its address with the user's limit: accounts are free
 * to open, so without it one address could multiply its budget by opening more. A blocked
 * client waits at most the 10-minute window.
 */
export function parseLinkLimits(env: Env): LinkLimitsConfig {
  return Object.freeze({
    perAddress: limitSetting(env, "SHORTEN_LIMIT_PER_ADDRESS", 20),
    perUser: limitSetting(env, "SHORTEN_LIMIT_PER_USER", 200),
    windowSeconds: secondsSetting(env, "SHORTEN_LIMIT_WINDOW_SECONDS", 600, 7 * 24 * 3600),
    deniedHosts: Object.freeze(parseDeniedHosts(env.DENIED_TARGET_HOSTS)),
  });
}

function parseDeniedHosts(raw: string | undefined): string[] {
  const hosts: string[] = [];
  for (const entry of (raw ?? "").split(/[\s,]+/)) {
    if (entry === "") continue;
    const host = hostOf(entry);
    if (host === null) {
      throw new Error(
        `invalid configuration: DENIED_TARGET_HOSTS must be host names separated by commas (evil.example: subdomains are included), got "${entry}"`,
      );
    }
    hosts.push(host);
  }
  return hosts;
}

/** A bare host name as WHATWG URL normalises it (case, IDN), without a trailing dot; null when `entry` is more than a host. */
export function hostOf(entry: string): string | null {
  let url: URL;
  try {
    url = new URL(`http://${entry}/`);
  } catch {
    return null;
  }
  if (url.host !== url.hostname || url.pathname !== "/" || url.username || url.search || url.hash) return null;
  if (entry.includes("*")) return null;
  return bareHost(url.hostname);
}

/**
 * A host name as hosts are compared: what WHATWG URL leaves of it (it has already folded
 * case, IDN, percent-escapes and the spellings of an IPv4 address) without its trailing
 * dots, which DNS ignores ("sho.rt." is sho.rt), and an IPv4-mapped IPv6 address as its
 * IPv4 address ("[::ffff:7f00:1]" is 127.0.0.1).
 */
export function bareHost(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.+$/, "");
  const v6 = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : null;
  if (v6 !== null && ipaddr.IPv6.isValid(v6)) {
    const address = ipaddr.IPv6.parse(v6);
    if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  }
  return host;
}

/** The denied entry `hostname` falls under (itself or a parent domain), or undefined. */
export function deniedEntryFor(hostname: string, deniedHosts: readonly string[]): string | undefined {
  const host = bareHost(hostname);
  return deniedHosts.find((denied) => host === denied || host.endsWith(`.${denied}`));
}

/** Refuses a target URL (absolute, WHATWG-normalised) whose host is denied. */
export function checkTargetHost(href: string, deniedHosts: readonly string[], field = "url"): void {
  const denied = deniedEntryFor(new URL(href).hostname, deniedHosts);
  if (denied !== undefined) {
    throw APIError.invalidArgument(`${field} must not point at ${denied} or its subdomains: this service does not link there`);
  }
}

export interface LinkCreator {
  /** The client's address key (address.ts); undefined for a call from another service. */
  readonly address: string | undefined;
  /** The signed-in user, if any. */
  readonly userID: string | undefined;
}

/** The counters of link creation; one per process, or several in tests (each on its own Redis prefix). */
export class LinkLimits {
  readonly config: LinkLimitsConfig;
  readonly #anonymousByAddress: Limiter | null;
  readonly #signedInByAddress: Limiter | null;
  readonly #byUser: Limiter | null;

  constructor(config: LinkLimitsConfig, redis?: RedisOption) {
    this.config = config;
    const limiter = (name: string, points: number | null) =>
      points === null ? null : new Limiter({ name, points, durationSeconds: config.windowSeconds, redis });
    this.#anonymousByAddress = limiter("links:address", config.perAddress);
    this.#signedInByAddress = limiter("links:signed-in-address", config.perUser);
    this.#byUser = limiter("links:user", config.perUser);
  }

  /** Counts one link for its creator; throws 429 resource_exhausted (with retryAfterSeconds) over a limit. */
  async count({ address, userID }: LinkCreator): Promise<void> {
    const who = userID === undefined ? "from this address" : "by this account or address";
    await refusedPast(`too many links created ${who}`, async () => {
      if (userID === undefined) {
        if (address !== undefined) await this.#anonymousByAddress?.consume(address);
        return;
      }
      await this.#byUser?.consume(userID);
      if (address !== undefined) await this.#signedInByAddress?.consume(address);
    });
  }
}

/** The app's link limits, from the environment at start. */
export const linkLimits = new LinkLimits(parseLinkLimits(process.env));
