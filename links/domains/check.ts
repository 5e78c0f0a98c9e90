import http from "node:http";
import type { ConnectTo } from "./check-config";

/** The path the url service answers a domain's token at (url/domain-token.ts). */
export function checkPath(token: string): string {
  return `/.well-known/url-shortener/${token}`;
}

export function checkUrlOf(host: string, token: string): string {
  return `http://${host}${checkPath(token)}`;
}

/** The whole check's limit: a domain that routes here answers at once. */
const timeoutMs = 5000;
/** More than any token; a longer answer is not the token. */
const bodyLimit = 1024;

/**
 * Fetches `http://<host>/.well-known/url-shortener/<token>` (`connectTo`: at that address
 * instead of the host's own) and resolves null when the answer is the token, else why
 * not, for the caller to show: a DNS failure, a refused or timed-out connection, a status
 * other than 200 (a redirect is not followed: the domain must route here itself), or
 * another body. The body is never echoed: the check must not read other servers' pages
 * for the caller.
 */
export function fetchToken(host: string, token: string, connectTo: ConnectTo | null): Promise<string | null> {
  const url = checkUrlOf(host, token);
  return new Promise((resolve) => {
    const req = http.request({
      host: connectTo?.host ?? host,
      port: connectTo?.port ?? 80,
      path: checkPath(token),
      method: "GET",
      headers: { host, accept: "text/plain", "user-agent": "url-shortener domain check" },
      timeout: timeoutMs,
      agent: false,
    });
    const timer = setTimeout(() => req.destroy(new Error("timeout")), timeoutMs);
    const done = (reason: string | null): void => {
      clearTimeout(timer);
      resolve(reason);
      req.destroy();
    };
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (err: NodeJS.ErrnoException) => done(failureOf(err, host, url)));
    req.on("response", (res) => {
      if (res.statusCode !== 200) {
        const where = res.statusCode! >= 300 && res.statusCode! < 400 ? ` (a redirect to ${res.headers.location ?? "nowhere"}; redirects are not followed)` : "";
        done(`${url} answered ${res.statusCode}${where}, not the token`);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > bodyLimit) done(`${url} answered something other than the token`);
        else chunks.push(chunk);
      });
      res.on("end", () => done(Buffer.concat(chunks).toString("utf8").trim() === token ? null : `${url} answered something other than the token`));
      res.on("error", (err) => done(failureOf(err, host, url)));
    });
    req.end();
  });
}

function failureOf(err: NodeJS.ErrnoException, host: string, url: string): string {
  switch (err.code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `the DNS lookup of ${host} failed: point the domain at this service first`;
    case "ECONNREFUSED":
      return `the connection to ${host} was refused (fetching ${url})`;
    case "ECONNRESET":
      return `the connection to ${host} was reset (fetching ${url})`;
    default:
      return err.message === "timeout" ? `${url} did not answer within ${timeoutMs / 1000} seconds` : `fetching ${url} failed: ${err.message}`;
  }
}
