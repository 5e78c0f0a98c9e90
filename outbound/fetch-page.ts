import http from "node:http";
import https from "node:https";
import { pinnedLookup } from "./pinned-lookup";
import { checkTarget, TargetRefused, type CheckedTarget, type TargetRules } from "./target";

/** How much one fetch of a page may cost. */
export interface FetchLimits {
  /** Bytes of the body read at most; the rest is not downloaded. */
  readonly maxBytes: number;
  /** The whole fetch, every redirect, name lookup and connection included. */
  readonly timeoutMs: number;
  /** Redirects followed at most, each checked as the first address was. */
  readonly maxRedirects: number;
}

/** A page fetched: the address it was found at last, and its first `maxBytes` as text. */
export interface FetchedPage {
  readonly url: string;
  readonly html: string;
  /** Whether the page was longer than `maxBytes` (only its start was read). */
  readonly truncated: boolean;
}

/** Why a page was not fetched (a TargetRefused, for an address refused, is one too). */
export class FetchFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FetchFailed";
  }
}

const htmlTypes = new Set(["text/html", "application/xhtml+xml"]);

/**
 * GETs an HTML page from a public address: every address (the first and each redirect's)
 * checked by `check` (target.ts: never loopback, private and other non-public addresses
 * unless `rules` allow them, never this app) and connected to as checked (pinned), at most
 * `limits.maxRedirects` redirects, `limits.maxBytes` read and `limits.timeoutMs` in all.
 * Only text/html is read. Throws TargetRefused or FetchFailed with the reason.
 */
export async function fetchPage(
  input: string,
  rules: TargetRules,
  limits: FetchLimits,
  userAgent: string,
  check: (url: string, rules: TargetRules) => Promise<CheckedTarget> = checkTarget,
): Promise<FetchedPage> {
  const deadline = Date.now() + limits.timeoutMs;
  let url = input;
  for (let hop = 0; ; hop++) {
    const target = await beforeDeadline(check(url, rules), deadline, limits.timeoutMs);
    const answer = await getOnce(target, limits.maxBytes, deadline, limits.timeoutMs, userAgent);
    if (answer.kind === "page") return answer.page;
    if (hop >= limits.maxRedirects) throw new FetchFailed(`more than ${limits.maxRedirects} redirects`);
    url = answer.location;
  }
}

type Answer = { kind: "page"; page: FetchedPage } | { kind: "redirect"; location: string };

function getOnce(target: CheckedTarget, maxBytes: number, deadline: number, timeoutMs: number, userAgent: string): Promise<Answer> {
  const send = target.url.protocol === "https:" ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const request = send(target.url, {
      method: "GET",
      lookup: pinnedLookup(target),
      agent: false,
      // Identity: a compressed body's size says nothing of what it inflates to.
      headers: { accept: "text/html,application/xhtml+xml;q=0.9", "accept-encoding": "identity", "user-agent": userAgent },
    });
    const timer = setTimeout(() => request.destroy(new FetchFailed(`no page within ${timeoutMs} ms`)), Math.max(0, deadline - Date.now()));
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(err instanceof FetchFailed ? err : new FetchFailed(`the page could not be fetched: ${err.message}`));
    };
    request.on("error", fail);
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location !== undefined) {
        clearTimeout(timer);
        request.destroy();
        let next: string;
        try {
          next = new URL(location, target.url).href;
        } catch {
          return reject(new FetchFailed("the page redirected to an address that is not a URL"));
        }
        return resolve({ kind: "redirect", location: next });
      }
      if (status < 200 || status >= 300) {
        clearTimeout(timer);
        request.destroy();
        return reject(new FetchFailed(`the page answered ${status}`));
      }
      const [type, ...parameters] = (response.headers["content-type"] ?? "").split(";");
      if (!htmlTypes.has(type!.trim().toLowerCase())) {
        clearTimeout(timer);
        request.destroy();
        return reject(new FetchFailed(`the page is not HTML (${type!.trim() || "no content type"})`));
      }
      const chunks: Buffer[] = [];
      let read = 0;
      const finish = (truncated: boolean) => {
        clearTimeout(timer);
        resolve({ kind: "page", page: { url: target.url.href, html: decode(Buffer.concat(chunks), parameters), truncated } });
      };
      response.on("data", (chunk: Buffer) => {
        const room = maxBytes - read;
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        read += Math.min(chunk.length, room);
        if (read >= maxBytes) {
          response.removeAllListeners("data");
          request.destroy(); // the rest is never downloaded
          finish(true);
        }
      });
      response.on("end", () => finish(false));
      response.on("error", fail);
    });
    request.end();
  });
}

/** The body as text, in the charset its content type names when TextDecoder knows it, else UTF-8. */
function decode(body: Buffer, parameters: readonly string[]): string {
  const charset = parameters.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("charset="))?.slice("charset=".length).replace(/"/g, "");
  try {
    return new TextDecoder(charset || "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

/** `work`, or a FetchFailed once the deadline passes (a name lookup that hangs). */
function beforeDeadline<T>(work: Promise<T>, deadline: number, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new FetchFailed(`no page within ${timeoutMs} ms`)), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export { TargetRefused };
