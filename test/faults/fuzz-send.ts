// Sends a generated request as it is: over Node's HTTP client (which keeps the path, the
// method and the framing as given, unlike fetch), or as raw bytes on a socket.
import http from "node:http";
import net from "node:net";
import type { FuzzRequest } from "./fuzz-requests.ts";

export interface FuzzAnswer {
  /** The status, "closed" (the server hung up without answering: allowed for raw requests only) or "no answer" (a hang or a reset). */
  readonly status: number | "closed" | "no answer";
  /** The first bytes of the body. */
  readonly body: string;
  readonly error?: string;
  /** How long it took, in milliseconds. */
  readonly ms?: number;
  /** The size of the body sent (or being sent). */
  readonly bodyBytes?: number;
}

const keepBodyBytes = 4096;

/**
 * One connection per request (Connection: close): a server that hangs up after refusing a
 * request (413 before the body was read) must not be mistaken for one that hung up on the
 * next request, which a kept-alive socket would send on the connection being closed.
 */
export function sendHttp(base: URL, req: FuzzRequest, limitMs: number): Promise<FuzzAnswer> {
  const started = performance.now();
  return new Promise((resolve) => {
    let status: number | undefined;
    let body = "";
    let settled = false;
    const settle = (answer: FuzzAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...answer, bodyBytes, ms: performance.now() - started });
    };
    const timer = setTimeout(() => {
      settle({ status: status ?? "no answer", body, error: `no answer within ${limitMs} ms` });
      request.destroy();
    }, limitMs);
    const bytes = req.body?.();
    const bodyBytes = bytes?.length ?? 0;
    const headers = { ...req.headers };
    if (bytes && req.withLength) headers["content-length"] = String(bytes.length);
    let request: http.ClientRequest;
    try {
      request = http.request({ host: base.hostname, port: base.port, method: req.method, path: req.path, headers, agent: false });
    } catch (err) {
      // Node's client refuses it (an invalid header value): not a request the server saw.
      clearTimeout(timer);
      resolve({ status: "closed", body: "", error: `not sent: ${(err as Error).message}` });
      return;
    }
    request.on("response", (res) => {
      status = res.statusCode;
      res.on("data", (chunk: Buffer) => {
        if (body.length < keepBodyBytes) body += chunk.toString("utf8");
      });
      res.on("end", () => settle({ status: status!, body }));
      res.on("error", () => settle({ status: status!, body }));
    });
    // A server that answers (413, 400) before reading the whole body may close the socket
    // while the body is still being written: the answer it gave is what counts.
    request.on("error", (err) => settle({ status: status ?? "no answer", body, error: err.message }));
    if (bytes) request.end(bytes);
    else request.end();
  });
}

export function sendRaw(base: URL, raw: Buffer, limitMs: number): Promise<FuzzAnswer> {
  return new Promise((resolve) => {
    let received = "";
    let settled = false;
    const socket = net.connect({ host: base.hostname, port: Number(base.port) });
    const settle = (answer: FuzzAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => settle({ status: "no answer", body: received, error: `no answer within ${limitMs} ms` }), limitMs);
    socket.on("connect", () => socket.end(raw)); // half-closed: a server waiting for more body sees the end
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      const line = /^HTTP\/1\.[01] (\d{3})/.exec(received);
      if (line && received.includes("\r\n\r\n")) settle({ status: Number(line[1]), body: received.slice(0, keepBodyBytes) });
    });
    socket.on("error", (err) => settle({ status: "closed", body: received, error: err.message }));
    socket.on("close", () => settle({ status: "closed", body: received }));
  });
}
