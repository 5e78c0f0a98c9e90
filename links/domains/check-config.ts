// How the domain check reaches a domain, read from the environment once and validated.
import { isIP } from "node:net";

/** Where to connect instead of a domain's own address (host and port), like curl's --connect-to. */
export interface ConnectTo {
  readonly host: string;
  readonly port: number;
}

/**
 * DOMAIN_CHECK_CONNECT_TO: unset (the default), the check connects to the domain's own
 * address on port 80, as any visitor would. Set ("127.0.0.1:4000", "[::1]:4000",
 * "app:8080"), every check connects there instead, still asking for the domain's Host:
 * for development and tests, where a domain's name does not resolve to this instance.
 * Never in production: every domain would pass the check.
 */
export function parseConnectTo(env: Readonly<Record<string, string | undefined>>): ConnectTo | null {
  const raw = env.DOMAIN_CHECK_CONNECT_TO?.trim();
  if (!raw) return null;
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})$/.exec(raw);
  const port = match ? Number(match[2]) : 0;
  const host = match ? match[1]!.replace(/^\[|\]$/g, "") : "";
  if (!match || port < 1 || port > 65535 || (match[1]!.startsWith("[") && isIP(host) !== 6)) {
    throw new Error(`invalid configuration: DOMAIN_CHECK_CONNECT_TO must be host:port (such as 127.0.0.1:4000 or [::1]:4000), got "${env.DOMAIN_CHECK_CONNECT_TO}"`);
  }
  return Object.freeze({ host, port });
}

export const domainCheckConnectTo: ConnectTo | null = parseConnectTo(process.env);
