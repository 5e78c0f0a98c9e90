import { parseCookie, stringifySetCookie } from "cookie";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createHash, timingSafeEqual } from "node:crypto";
import { APIError } from "../errors/api-error.ts";
import { isApiPath } from "./front-end.ts";
import { accessPage } from "./access-page.ts";

/** The query parameter of the link `run` prints: `http://localhost:9400/?token=<secret>`. */
export const tokenParameter = "token";

/**
 * The cookie that holds access, one per dashboard port: browsers scope cookies by host, not
 * port, so two dashboards on localhost need two names.
 */
export function accessCookieName(port: number): string {
  return `encore_dashboard_${port}`;
}

/** The link that opens the dashboard: what `run` prints. */
export function accessLink(url: string, secret: string): string {
  return `${url}/?${tokenParameter}=${secret}`;
}

/**
 * Who may use the dashboard: whoever holds the secret `run` drew when it started, which it
 * printed, in the link, on its developer's terminal only. Runs after guard.ts (Host, Origin).
 * - A page opened with `?token=<secret>` sets the secret in an HttpOnly, SameSite=Strict
 *   cookie and redirects (303) to the same page without the token, so the secret leaves the
 *   address bar, history and referrers.
 * - Every other request needs that cookie. Without it (or with a wrong one, or a wrong token)
 *   the API and WebSocket upgrades answer 401 `unauthenticated`, and a page says to open the
 *   link `run` printed.
 * Secrets are compared in constant time, as SHA-256 digests, so neither their bytes nor their
 * length leak through timing.
 */
export function registerAccess(app: FastifyInstance, secret: string, port: () => number): void {
  const expected = digest(secret);
  const matches = (given: string) => timingSafeEqual(digest(given), expected);

  app.addHook("onRequest", async (req, reply) => {
    const url = new URL(req.url, "http://dashboard");
    const token = url.searchParams.get(tokenParameter);
    if (token !== null && isPageRequest(req)) {
      if (!matches(token)) return refuse(req, reply, "wrong link", port());
      url.searchParams.delete(tokenParameter);
      const cookie = stringifySetCookie({ name: accessCookieName(port()), value: secret, httpOnly: true, sameSite: "strict", path: "/" });
      // One leading slash: "//host" would be another site's address.
      const location = `/${url.pathname.replace(/^\/+/, "")}${url.search}`;
      return reply.code(303).headers({ "set-cookie": cookie, location, "cache-control": "no-store" }).send();
    }
    const given = req.headers.cookie === undefined ? undefined : parseCookie(req.headers.cookie)[accessCookieName(port())];
    if (given !== undefined && matches(given)) return;
    return refuse(req, reply, given === undefined ? "no access" : "wrong link", port());
  });
}

function refuse(req: FastifyRequest, reply: FastifyReply, why: "no access" | "wrong link", port: number): FastifyReply {
  const link = `http://localhost:${port}/?${tokenParameter}=…`;
  if (isPageRequest(req)) {
    return reply.code(401).type("text/html; charset=utf-8").header("cache-control", "no-store").send(accessPage(why, link));
  }
  const wrong = why === "wrong link" ? "this access is not this run's (run draws a new secret each time it starts): " : "";
  throw APIError.unauthenticated(`the development dashboard is its developer's only: ${wrong}open the link encore-selfhost run printed (${link})`);
}

/** A page the browser navigates to (answered with HTML), rather than an API call or an upgrade. */
function isPageRequest(req: FastifyRequest): boolean {
  return (req.method === "GET" || req.method === "HEAD") && !isApiPath(req.url) && req.headers.upgrade === undefined;
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
