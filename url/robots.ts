import { api } from "encore.dev/api";
import type { IncomingMessage, ServerResponse } from "node:http";
import { rawHeader } from "./link-answers/http";
import { robotsTxtFor } from "./robots/robots-txt";

/**
 * GET /robots.txt: what crawlers may fetch (robots/robots-txt.ts), as text/plain. A route
 * of its own: "robots.txt" is no well-formed code, so GET /:code would answer it 404, and
 * the router prefers a fixed path to a parameter. Raw, for a plain-text answer.
 */
export const robotsTxt = api.raw(
  { expose: true, method: ["GET", "HEAD"], path: "/robots.txt" },
  (req: IncomingMessage, res: ServerResponse): void => {
    const body = robotsTxtFor(hostOf(rawHeader(req, "host")));
    res.writeHead(200, {
      "content-type": "text/plain; charset=utf-8",
      "content-length": Buffer.byteLength(body),
      "cache-control": "public, max-age=3600",
    });
    res.end(req.method === "HEAD" ? undefined : body);
  },
);

/** "Short.Example:8080" → "short.example"; an IPv6 literal keeps its brackets. */
function hostOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const port = header.lastIndexOf(":");
  const host = port > header.lastIndexOf("]") ? header.slice(0, port) : header;
  return host.toLowerCase();
}
