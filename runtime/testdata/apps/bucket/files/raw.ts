import { currentRequest, type APICallMeta } from "encore.dev";
import { api } from "encore.dev/api";
import { ObjectNotFound } from "encore.dev/storage/objects";
import { uploads } from "./bucket";

function nameOfRequest(): string {
  return (currentRequest() as APICallMeta).pathParams.name as string;
}

/**
 * Stores the request body as it is (any content type), for clients that send files
 * without JSON; up to 10 MiB (Encore reads bodyLimit as a constant expression).
 */
export const uploadRaw = api.raw(
  { expose: true, method: "PUT", path: "/files/:name/raw", bodyLimit: 10 * 1024 * 1024 },
  async (req, resp) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const name = nameOfRequest();
    const contentType = req.headers["content-type"] ?? "application/octet-stream";
    const attrs = await uploads.upload(name, Buffer.concat(chunks), { contentType });
    resp.writeHead(201, { "Content-Type": "application/json" });
    resp.end(JSON.stringify({ name, size: attrs.size, url: uploads.publicUrl(name) }));
  },
);

/** Sends a stored file's bytes with the content type it was stored with. */
export const download = api.raw(
  { expose: true, method: "GET", path: "/files/:name" },
  async (_req, resp) => {
    const name = nameOfRequest();
    try {
      const attrs = await uploads.attrs(name);
      const data = await uploads.download(name);
      resp.writeHead(200, { "Content-Type": attrs.contentType ?? "application/octet-stream", "Content-Length": data.length });
      resp.end(data);
    } catch (err) {
      if (!(err instanceof ObjectNotFound)) throw err;
      resp.writeHead(404, { "Content-Type": "application/json" });
      resp.end(JSON.stringify({ code: "not_found", message: `file ${name} not found`, details: null }));
    }
  },
);
