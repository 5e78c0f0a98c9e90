import type { IncomingMessage } from "node:http";

/** Far more than a form of one 128-character password needs, even percent-encoded (12 bytes a character at most). */
export const maxFormBytes = 4096;

/** What reading a form found: its fields, or why it was refused. */
export type FormRead = { readonly fields: URLSearchParams } | { readonly refused: "not a form" | "too large" };

/**
 * Reads an application/x-www-form-urlencoded body of at most `maxBytes`. Refuses any other
 * type unread, and stops reading a body as soon as it passes the limit (a declared
 * Content-Length is checked before reading): a refused body is never held in memory, and
 * its answer should close the connection rather than wait for the rest.
 */
export function readForm(req: IncomingMessage, maxBytes = maxFormBytes): Promise<FormRead> {
  const type = req.headers["content-type"]?.split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return Promise.resolve({ refused: "not a form" });
  if (Number(req.headers["content-length"]) > maxBytes) return Promise.resolve({ refused: "too large" });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.off("data", onData).off("end", onEnd).off("error", reject);
        req.pause();
        resolve({ refused: "too large" });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve({ fields: new URLSearchParams(Buffer.concat(chunks).toString("utf8")) });
    req.on("data", onData).on("end", onEnd).on("error", reject);
  });
}
