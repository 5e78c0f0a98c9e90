import http from "node:http";
import https from "node:https";
import { pinnedLookup } from "../../outbound/pinned-lookup";
import type { CheckedTarget } from "../../outbound/target";

/** What one attempt got: the receiver's status, or why there was none. */
export interface AttemptOutcome {
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

/**
 * POSTs `body` to the checked target, connecting to its checked address only
 * (outbound/pinned-lookup.ts), within `timeoutMs` in all. Redirects are not
 * followed: a 3xx is a failure like any non-2xx. The response body is read and dropped.
 */
export function postTo(target: CheckedTarget, body: string, headers: Record<string, string>, timeoutMs: number): Promise<AttemptOutcome> {
  const started = performance.now();
  const send = target.url.protocol === "https:" ? https.request : http.request;
  return new Promise((resolve) => {
    const done = (statusCode: number | null, error: string | null) =>
      resolve({ statusCode, error, durationMs: Math.round(performance.now() - started) });
    const request = send(target.url, {
      method: "POST",
      lookup: pinnedLookup(target),
      agent: false,
      headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body).toString() },
    });
    const timer = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    request.on("response", (response) => {
      response.resume();
      response.on("end", () => {
        clearTimeout(timer);
        const status = response.statusCode ?? 0;
        done(status, status >= 200 && status < 300 ? null : `the receiver answered ${status}`);
      });
      response.on("error", (err) => {
        clearTimeout(timer);
        done(status(response), err.message);
      });
    });
    request.on("error", (err) => {
      clearTimeout(timer);
      done(null, err.message);
    });
    request.end(body);
  });
}

function status(response: http.IncomingMessage): number | null {
  return response.statusCode ?? null;
}
