import type { FastifyInstance, FastifyRequest } from "fastify";
import { APIError } from "../errors/api-error.ts";

/**
 * What keeps other sites away from the dashboard, which can call internal endpoints and
 * read the databases. It listens on loopback only, and answers only requests:
 * - whose Host is the dashboard's own loopback address (localhost, 127.0.0.1, [::1] with its
 *   port), so a page served from another name that resolves to 127.0.0.1 (DNS rebinding)
 *   gets nothing;
 * - whose Origin, when sent, is that same address over http, so another site's page cannot
 *   make its visitor's browser call the API;
 * - and, for POSTs, with a JSON content type, which no HTML form can send, so a cross-site
 *   form post without an Origin header is refused too.
 * Every answer also forbids framing and content sniffing.
 */
export function registerGuard(app: FastifyInstance, port: () => number): void {
  app.addHook("onRequest", async (req, reply) => {
    void reply.headers({ "x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" });
    const hosts = allowedHosts(port());
    const host = req.headers.host?.toLowerCase();
    if (host === undefined || !hosts.includes(host)) {
      throw APIError.permissionDenied(`the development dashboard answers only requests to ${hosts[0]}`);
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !hosts.some((h) => origin.toLowerCase() === `http://${h}`)) {
      throw APIError.permissionDenied("the development dashboard answers only its own pages: cross-origin requests are refused");
    }
    if (req.method === "POST" && !isJson(req)) {
      throw APIError.invalidArgument("the development dashboard's API takes JSON: send Content-Type: application/json");
    }
  });
}

export function allowedHosts(port: number): string[] {
  return [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`];
}

function isJson(req: FastifyRequest): boolean {
  const type = req.headers["content-type"];
  return type !== undefined && type.split(";")[0]!.trim().toLowerCase() === "application/json";
}
