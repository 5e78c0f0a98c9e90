import { api } from "encore.dev/api";
import type { IncomingMessage, ServerResponse } from "node:http";
import { db } from "./db";

/** A token as links/domains/domain-rows.ts makes them: 24 bytes in base64url. */
const tokenShape = /^[A-Za-z0-9_-]{32}$/;

/**
 * GET /.well-known/url-shortener/:token answers the token, as plain text, when a domain
 * has it, on any Host: the links service's domain check (links/domains.ts) fetches it
 * through the domain, and the answer proves the domain routes to this service. 404
 * otherwise. The token is no secret once the domain is added (its owner publishes nothing
 * else by it), and answering a verified domain's token too lets a check run again.
 * A raw endpoint: the answer is the bare token, not JSON.
 */
export const domainToken = api.raw(
  { expose: true, method: ["GET", "HEAD"], path: "/.well-known/url-shortener/:token" },
  async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const token = (req.url ?? "").split("?")[0]!.split("/").at(-1) ?? "";
    const known = tokenShape.test(token) && (await db.rawQueryRow<{ one: number }>(`SELECT 1 AS one FROM domains WHERE token = $1`, token)) !== null;
    const body = known ? token : "not found";
    res.writeHead(known ? 200 : 404, {
      "content-type": "text/plain; charset=utf-8",
      "content-length": Buffer.byteLength(body),
      "cache-control": "no-store",
    });
    res.end(req.method === "HEAD" ? undefined : body);
  },
);
