import { useEffect, useState } from "preact/hooks";

/** The pages, addressed by the URL's hash so the server only ever serves index.html at /. */
export type Route =
  | { page: "shorten" }
  | { page: "stats"; code: string }
  | { page: "login" }
  | { page: "signup" }
  | { page: "links" }
  | { page: "keys" }
  | { page: "sessions" }
  | { page: "missing" };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, "") || "/";
  if (path === "/") return { page: "shorten" };
  if (path === "/login") return { page: "login" };
  if (path === "/signup") return { page: "signup" };
  if (path === "/links") return { page: "links" };
  if (path === "/keys") return { page: "keys" };
  if (path === "/sessions") return { page: "sessions" };
  // A random code or an alias (letters of either case, digits, "-" and "_").
  const stats = /^\/stats\/([A-Za-z0-9_-]+)$/.exec(path);
  if (stats) return { page: "stats", code: stats[1]! };
  return { page: "missing" };
}

export const href = {
  shorten: "#/",
  stats: (code: string) => `#/stats/${code}`,
  login: "#/login",
  signup: "#/signup",
  links: "#/links",
  keys: "#/keys",
  sessions: "#/sessions",
};

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
