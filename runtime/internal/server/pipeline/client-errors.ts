import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { ErrCode } from "../../errors/api-error.ts";

/**
 * Answers a request Node's HTTP parser could not read (a header line with no colon, a bad
 * chunk size, headers past the size limit, a request not sent in time) in Encore's error
 * format, where Fastify's default writes its own `{"error","message","statusCode"}`. No
 * route or hook runs for such a request: the parser failed before there was one, so the
 * answer is written to the socket, which is then closed (its framing is lost).
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection has no one left to answer.
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const { status, code, message } = answerFor(err.code);
  if (socket.writable) {
    const body = JSON.stringify({ code, message, details: null });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** The status keeps what HTTP says went wrong; the code is Encore's nearest. */
function answerFor(parserCode: string | undefined): { status: number; code: ErrCode; message: string } {
  if (parserCode === "ERR_HTTP_REQUEST_TIMEOUT") {
    return { status: 408, code: ErrCode.DeadlineExceeded, message: "the request was not received in time" };
  }
  if (parserCode === "HPE_HEADER_OVERFLOW") {
    return { status: 431, code: ErrCode.InvalidArgument, message: "the request's headers are too large" };
  }
  return { status: 400, code: ErrCode.InvalidArgument, message: "malformed HTTP request" };
}
