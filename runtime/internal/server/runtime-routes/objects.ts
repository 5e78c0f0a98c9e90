import type { FastifyInstance, FastifyRequest } from "fastify";
import { APIError, withPrivateCause } from "../../errors/api-error.ts";
import { objectsPath } from "../../meta/runtime-routes.ts";
import { checkContentType } from "../../objects/arguments.ts";
import { InvalidArgument, ObjectNotFound, PreconditionFailed } from "../../objects/errors.ts";
import type { LocalProvider } from "../../objects/local-provider.ts";
import { checkObjectName } from "../../objects/names.ts";
import type { BucketSpec } from "../../objects/provider.ts";
import type { SignedMethod } from "../../objects/signing.ts";
import { TransportError } from "../pipeline/errors.ts";

export interface ObjectRoutesOptions {
  /** The local provider, whose signer checks signed URLs. */
  readonly store: () => Promise<LocalProvider>;
  /** A bucket's settings, or undefined when there is no such bucket (declared at run time too). */
  readonly bucket: (name: string) => BucketSpec | undefined;
  /** Largest body a signed PUT may declare. */
  readonly maxUploadBytes?: number;
}

/** 32 MiB: images and documents, not backups; Bucket.upload from the app has no such limit. */
export const defaultMaxUploadBytes = 32 * 1024 * 1024;

/**
 * Public anyone may cache, but must revalidate before each use: an object can be replaced
 * under the same name, and any max-age would show the old one for that long. Revalidating
 * costs a 304 without a body thanks to the ETag. A signed response is private and not stored:
 * it was meant for one holder of the URL, for a limited time.
 */
const publicCaching = "public, no-cache";
const signedCaching = "private, no-store";

/**
 * GET/HEAD/PUT /objects/<bucket>/<name>: the local provider's objects over HTTP.
 *   - GET/HEAD: public buckets for anyone; any bucket with a valid signed GET URL.
 *     A private object without a signature is 403, whether or not it exists.
 *   - PUT: only with a valid signed PUT URL; the body is stored with the request's Content-Type.
 *     Everything is checked before a byte of the body is read: the name, the signature and
 *     expiry, then the declared Content-Length (required, as S3 requires it, so a body is
 *     refused before it is sent rather than cut off half-way). Then the body is streamed to
 *     the store, never held whole in memory: an unsigned request cannot make the server read,
 *     let alone buffer, anything. A refused request's connection is closed, so its unread
 *     body is not read and discarded either.
 * Errors use Encore's format: unknown bucket or object 404, bad name 400, bad or expired
 * signature 403, a body without Content-Length 411, too large 413. Registered only with the local
 * provider (S3 serves its own URLs).
 */
export function objectRoutes(options: ObjectRoutesOptions) {
  const maxUploadBytes = options.maxUploadBytes ?? defaultMaxUploadBytes;
  return async (scope: FastifyInstance): Promise<void> => {
    // In this scope only: no body is parsed. GET and HEAD take none, and the PUT route reads
    // its body itself once the request has passed its checks.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_req, _payload, done) => done(null));

    scope.route({
      method: ["GET", "HEAD"],
      url: `${objectsPath}/:bucket/*`,
      handler: async (req, reply) => {
        const { spec, name } = target(req, options);
        const store = await options.store();
        const access = authorize(req, "GET", spec, name, store);
        const { header, content, close } = await store.openObject(spec, name).catch(rethrowAsApiError);
        reply
          .header("ETag", `"${header.etag}"`)
          .header("Cache-Control", access === "public" ? publicCaching : signedCaching)
          .header("X-Content-Type-Options", "nosniff")
          // Uploaded HTML or SVG opened from this origin runs no script and reaches no cookie.
          .header("Content-Security-Policy", "sandbox");
        if (notModified(req.headers["if-none-match"], header.etag)) {
          await close();
          return reply.code(304).send();
        }
        reply.header("Content-Type", header.contentType ?? "application/octet-stream").header("Content-Length", header.size);
        if (req.method === "HEAD") {
          await close();
          return reply.send();
        }
        return reply.send(content());
      },
    });

    scope.put(`${objectsPath}/:bucket/*`, async (req, reply) => {
      let upload: CheckedUpload;
      try {
        upload = await checkUpload(req, options, maxUploadBytes);
      } catch (err) {
        if (hasBody(req)) reply.header("Connection", "close");
        throw err;
      }
      const { store, spec, name, size, contentType } = upload;
      const stored = await store.uploadStream(spec, name, req.raw, { size, contentType }).catch((err: unknown) => {
        // No one is left to answer; nothing was stored (local-provider.ts).
        if (req.raw.readableAborted || req.raw.destroyed) throw APIError.canceled("the client left before the upload was complete");
        return rethrowAsApiError(err);
      });
      return reply
        .header("ETag", `"${stored.etag}"`)
        .send({ name, size: stored.size, etag: stored.etag, ...(stored.contentType && { contentType: stored.contentType }) });
    });
  };
}

interface CheckedUpload {
  readonly store: LocalProvider;
  readonly spec: BucketSpec;
  readonly name: string;
  readonly size: number;
  readonly contentType: string | undefined;
}

/** Everything a signed PUT is checked for, from its URL and headers only: its body is still unread. */
async function checkUpload(req: FastifyRequest, options: ObjectRoutesOptions, maxUploadBytes: number): Promise<CheckedUpload> {
  const { spec, name } = target(req, options);
  const store = await options.store();
  authorize(req, "PUT", spec, name, store);
  const size = declaredLength(req, maxUploadBytes);
  const contentType = asApiError(() => checkContentType(req.headers["content-type"]));
  return { store, spec, name, size, contentType };
}

/**
 * The body's length as declared. Node's HTTP parser has checked the header is a number and
 * ends the body there, so no more than this is ever read. A body sent in chunks of unknown
 * total is refused (411), as S3 refuses it: its size could only be judged once received.
 */
function declaredLength(req: FastifyRequest, maxUploadBytes: number): number {
  const declared = req.headers["content-length"];
  if (declared === undefined) {
    if (req.headers["transfer-encoding"] === undefined) return 0; // HTTP/1.1: no body at all
    throw new TransportError("lengthRequired", "an upload must declare its size in Content-Length");
  }
  const size = Number(declared);
  if (size > maxUploadBytes) {
    throw new TransportError("bodyTooLarge", `the upload is ${size} bytes, larger than the ${maxUploadBytes} bytes a signed upload may carry`);
  }
  return size;
}

function hasBody(req: FastifyRequest): boolean {
  const declared = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (declared !== undefined && declared !== "0");
}

function target(req: FastifyRequest, options: ObjectRoutesOptions): { spec: BucketSpec; name: string } {
  const params = req.params as { bucket: string; "*": string };
  const spec = options.bucket(params.bucket);
  if (!spec) throw APIError.notFound(`bucket "${params.bucket}" not found`);
  // Fastify decoded the path once: "%2e%2e%2f" is "../" here, and refused.
  const name = params["*"];
  asApiError(() => checkObjectName(name));
  return { spec, name };
}

/** How the request may reach the object: as anyone (public bucket) or as holder of a signed URL. */
function authorize(req: FastifyRequest, method: SignedMethod, spec: BucketSpec, name: string, store: LocalProvider): "public" | "signed" {
  const { expires, signature } = req.query as Record<string, unknown>;
  if (expires === undefined && signature === undefined) {
    if (method === "GET" && spec.public) return "public";
    throw APIError.permissionDenied(
      method === "PUT" ? "uploading needs a signed upload URL" : `bucket "${spec.name}" is not public: a signed download URL is needed`,
    );
  }
  const verdict =
    typeof expires === "string" && typeof signature === "string" ? store.signer.verify(method, spec.name, name, expires, signature) : "invalid";
  if (verdict === "expired") throw APIError.permissionDenied("the signed URL has expired");
  if (verdict === "invalid") throw APIError.permissionDenied(`the signed URL is not valid for ${method} of this object`);
  return "signed";
}

/** If-None-Match lists the object's entity tag, or is "*" (weak comparison, as RFC 9110 asks for GET). */
function notModified(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === `"${etag}"`);
}

function rethrowAsApiError(err: unknown): never {
  if (err instanceof ObjectNotFound) throw withPrivateCause(APIError.notFound(err.message, err));
  if (err instanceof InvalidArgument) throw withPrivateCause(APIError.invalidArgument(err.message, err));
  if (err instanceof PreconditionFailed) throw withPrivateCause(APIError.failedPrecondition(err.message, err));
  throw err;
}

function asApiError<T>(check: () => T): T {
  try {
    return check();
  } catch (err) {
    return rethrowAsApiError(err);
  }
}
