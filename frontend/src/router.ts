import { useEffect, useState } from "preact/hooks";

/** The pages, addressed by the URL's hash so the server only ever serves index.html at /. */
export type Route =
  | { page: "shorten" }
  | { page: "stats"; code: string }
  | { page: "login"; then?: string }
  | { page: "signup"; then?: string }
  | { page: "links" }
  | { page: "keys" }
  | { page: "admin"; tab: AdminTab; params: Record<string, string> }
  | { page: "report"; code: string }
  | { page: "tag"; workspaceId: string; tagId: number }
  | { page: "sessions" }
  | { page: "workspaces" }
  | { page: "workspace"; id: string }
  | { page: "webhooks"; workspaceId: string }
  | { page: "domains"; workspaceId: string }
  | { page: "domain"; workspaceId: string; host: string }
  | { page: "invite"; token: string }
  | { page: "transfers" }
  | { page: "forgot" }
  | { page: "reset"; token: string }
  | { page: "verify"; token: string }
  | { page: "missing" };

/** The admin page's sections. */
export type AdminTab = "users" | "links" | "reports" | "hosts" | "audit";
const adminTabs: readonly AdminTab[] = ["users", "links", "reports", "hosts", "audit"];

/**
 * Where to go once signed in (`#/login?then=/invite/…`): a page of this site's only, so a
 * crafted link cannot send a new session elsewhere.
 */
function thenOf(query: string): { then?: string } {
  const then = new URLSearchParams(query).get("then");
  return then && /^\/[A-Za-z0-9/_-]*$/.test(then) ? { then } : {};
}

export function parseRoute(hash: string): Route {
  const [path = "/", query = ""] = (hash.replace(/^#/, "") || "/").split("?", 2);
  if (path === "/") return { page: "shorten" };
  if (path === "/login") return { page: "login", ...thenOf(query) };
  if (path === "/signup") return { page: "signup", ...thenOf(query) };
  if (path === "/links") return { page: "links" };
  if (path === "/keys") return { page: "keys" };
  const admin = /^\/admin(?:\/([a-z]+))?$/.exec(path);
  if (admin && (admin[1] === undefined || adminTabs.includes(admin[1] as AdminTab))) {
    return { page: "admin", tab: (admin[1] ?? "users") as AdminTab, params: Object.fromEntries(new URLSearchParams(query)) };
  }
  const report = /^\/report\/([A-Za-z0-9_-]+)$/.exec(path);
  if (report) return { page: "report", code: report[1]! };
  if (path === "/sessions") return { page: "sessions" };
  if (path === "/transfers") return { page: "transfers" };
  if (path === "/forgot") return { page: "forgot" };
  // A mailed reset link's token: 43 base64url characters (users/password-reset.ts).
  const reset = /^\/reset\/([A-Za-z0-9_-]+)$/.exec(path);
  if (reset) return { page: "reset", token: reset[1]! };
  // A mailed verification link's token (users/verification/verification-mail.ts).
  const verify = /^\/verify\/([A-Za-z0-9_-]+)$/.exec(path);
  if (verify) return { page: "verify", token: verify[1]! };
  if (path === "/workspaces") return { page: "workspaces" };
  const workspace = /^\/workspaces\/([0-9a-fA-F-]{36})$/.exec(path);
  if (workspace) return { page: "workspace", id: workspace[1]! };
  const webhooks = /^\/workspaces\/([0-9a-fA-F-]{36})\/webhooks$/.exec(path);
  if (webhooks) return { page: "webhooks", workspaceId: webhooks[1]! };
  const domains = /^\/workspaces\/([0-9a-fA-F-]{36})\/domains$/.exec(path);
  if (domains) return { page: "domains", workspaceId: domains[1]! };
  // A domain's host as stored: lower case letters, digits, dots and hyphens (punycode for IDNs).
  const domain = /^\/workspaces\/([0-9a-fA-F-]{36})\/domains\/([a-z0-9.-]{1,253})$/.exec(path);
  if (domain) return { page: "domain", workspaceId: domain[1]!, host: domain[2]! };
  // An invitation's token: 43 base64url characters (workspaces/store/invitation-rows.ts).
  const invite = /^\/invite\/([A-Za-z0-9_-]+)$/.exec(path);
  if (invite) return { page: "invite", token: invite[1]! };
  // A random code or an alias (letters of either case, digits, "-" and "_").
  const stats = /^\/stats\/([A-Za-z0-9_-]+)$/.exec(path);
  if (stats) return { page: "stats", code: stats[1]! };
  const tag = /^\/workspaces\/([A-Za-z0-9-]+)\/tags\/(\d{1,10})$/.exec(path);
  if (tag) return { page: "tag", workspaceId: tag[1]!, tagId: Number(tag[2]) };
  return { page: "missing" };
}

export const href = {
  shorten: "#/",
  stats: (code: string) => `#/stats/${code}`,
  login: "#/login",
  signup: "#/signup",
  /** The sign-in pages, then back to `then` (a route's path, "/invite/…"). */
  loginThen: (then: string | undefined) => (then ? `#/login?then=${encodeURIComponent(then)}` : "#/login"),
  signupThen: (then: string | undefined) => (then ? `#/signup?then=${encodeURIComponent(then)}` : "#/signup"),
  links: "#/links",
  keys: "#/keys",
  admin: "#/admin",
  report: (code: string) => `#/report/${code}`,
  tagStats: (workspaceId: string, tagId: number) => `#/workspaces/${workspaceId}/tags/${tagId}`,
  sessions: "#/sessions",
  workspaces: "#/workspaces",
  workspace: (id: string) => `#/workspaces/${id}`,
  webhooks: (workspaceId: string) => `#/workspaces/${workspaceId}/webhooks`,
  domains: (workspaceId: string) => `#/workspaces/${workspaceId}/domains`,
  domainStats: (workspaceId: string, host: string) => `#/workspaces/${workspaceId}/domains/${host}`,
  invite: (token: string) => `#/invite/${token}`,
  transfers: "#/transfers",
  forgot: "#/forgot",
};

/** A section of the admin page, with its filters (the links of a creator or a host). */
export function adminHref(tab: AdminTab, params: Record<string, string> = {}): string {
  const query = new URLSearchParams(params).toString();
  return `#/admin/${tab}${query ? `?${query}` : ""}`;
}

export function navigate(to: string): void {
  location.hash = to;
}

export function useRoute(): Route {
  const [shown, setShown] = useState(() => ({ hash: location.hash, route: parseRoute(location.hash) }));
  useEffect(() => {
    // Only a new hash makes a new route: the page moves focus to its heading on every new route.
    const onChange = () => setShown((s) => (s.hash === location.hash ? s : { hash: location.hash, route: parseRoute(location.hash) }));
    addEventListener("hashchange", onChange);
    // Effects run after the first paint: a hash changed before then fired no event anyone heard.
    onChange();
    return () => removeEventListener("hashchange", onChange);
  }, []);
  return shown.route;
}
