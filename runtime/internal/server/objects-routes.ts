import type { FastifyInstance, FastifyRequest } from "fastify";
import { APIError } from "../errors/api-error.ts";
import { objectsPath } from "../meta/runtime-routes.ts";
import { checkContentType } from "../objects/arguments.ts";
import { InvalidArgument, ObjectNotFound, PreconditionFailed } from "../objects/errors.ts";
import type { LocalProvider } from "../objects/local-provider.ts";
import { checkObjectName } from "../objects/names.ts";
import type { BucketSpec } from "../objects/provider.ts";
import type { SignedMethod } from "../objects/signing.ts";

export interface ObjectRoutesOptions {
  /** The local provider, whose signer checks signed URLs. */
  readonly store: () => Promise<LocalProvider>;
  /** A bucket's settings, or undefined when there is no such bucket (declared at run time too). */
  readonly bucket: (name: string) => BucketSpec | undefined;
  /** Largest body a signed PUT may carry. */
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
 * Errors use Encore's format: unknown bucket or object 404, bad name 400, bad or expired
 * signature 403. Registered only with the local provider (S3 serves its own URLs).
 */
export function objectRoutes(options: ObjectRoutesOptions) {
  const maxUploadBytes = options.maxUploadBytes ?? defaultMaxUploadBytes;
  return async (scope: FastifyInstance): Promise<void> => {
    // In this scope only: any body is the object's bytes, whatever its type.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: maxUploadBytes }, (_req, body, done) => done(null, body));

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
      const { spec, name } = target(req, options);
      const store = await options.store();
      authorize(req, "PUT", spec, name, store);
      const contentType = asApiError(() => checkContentType(req.headers["content-type"]));
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const stored = await store.upload(spec, name, body, { contentType }).catch(rethrowAsApiError);
      return reply
        .header("ETag", `"${stored.etag}"`)
        .send({ name, size: stored.size, etag: stored.etag, ...(stored.contentType && { contentType: stored.contentType }) });
    });
  };
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
  if (err instanceof ObjectNotFound) throw APIError.notFound(err.message, err);
  if (err instanceof InvalidArgument) throw APIError.invalidArgument(err.message, err);
  if (err instanceof PreconditionFailed) throw APIError.failedPrecondition(err.message, err);
  throw err;
}

function asApiError<T>(check: () => T): T {
  try {
    return check();
  } catch (err) {
    return rethrowAsApiError(err);
  }
}
