import { isUtf8 } from "node:buffer";
import type { FastifyInstance } from "fastify";
import secureJson from "secure-json-parse";
import { APIError, withPrivateCause } from "../../errors/api-error.ts";

/**
 * Request bodies are JSON whatever the Content-Type says, as in Encore: clients
 * such as `curl -d` send JSON labelled as a form. The body is checked to be UTF-8
 * first, since JSON.parse would silently turn bad bytes into U+FFFD.
 */
export function registerJsonBodyParser(server: FastifyInstance): void {
  server.removeAllContentTypeParsers();
  server.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}

export function parseJsonBody(body: Buffer): unknown {
  if (body.length === 0) return {};
  if (!isUtf8(body)) throw APIError.invalidArgument("the request body is not valid UTF-8");
  try {
    // Rejects __proto__ and constructor.prototype keys: they would poison objects built from the body.
    return secureJson.parse(body.toString("utf8"), undefined, { protoAction: "error", constructorAction: "error" });
  } catch (err) {
    throw withPrivateCause(APIError.invalidArgument(`the request body is not valid JSON: ${(err as Error).message}`, err as Error));
  }
}
