import type { FastifyInstance } from "fastify";
import path from "node:path";
import { APIError } from "../errors/api-error.ts";
import type { AppMeta } from "../meta/types.ts";
import { bucketSpec, startObjects } from "../objects/mod.ts";
import { InvalidArgument, ObjectNotFound } from "../objects/errors.ts";
import { checkListPrefix, checkObjectName } from "../objects/names.ts";
import type { BucketSpec } from "../objects/provider.ts";
import type { BucketsState, ObjectList } from "./api.ts";

/** Objects per page. */
const pageSize = 100;

/**
 * GET /api/buckets; GET /api/buckets/:name/objects?prefix=&after=, a page at a time;
 * GET /api/buckets/:name/download?key=, the object's bytes as an attachment. Through the
 * configured objects provider (local files or S3), as the app's own Bucket calls go.
 */
export function registerBuckets(app: FastifyInstance, meta: AppMeta): void {
  app.get("/api/buckets", async (): Promise<BucketsState> => ({
    buckets: meta.buckets.map((b) => ({ name: b.name, service: b.service, public: b.public, versioned: b.versioned })),
  }));

  app.get("/api/buckets/:name/objects", async (req): Promise<ObjectList> => {
    const bucket = knownBucket(meta, (req.params as { name: string }).name);
    const { prefix, after } = req.query as { prefix?: unknown; after?: unknown };
    const wanted = prefix === undefined || prefix === "" ? undefined : prefix;
    if (after !== undefined && typeof after !== "string") throw APIError.invalidArgument("after must be given once");
    const provider = await startObjects();
    const names: { name: string; size: number }[] = [];
    let more = false;
    try {
      checkListPrefix(wanted);
      // Providers list from the start in name order: the names up to `after` are skipped.
      for await (const object of provider.list(bucket, { prefix: wanted })) {
        if (after !== undefined && object.name <= after) continue;
        if (names.length === pageSize) {
          more = true;
          break;
        }
        names.push({ name: object.name, size: object.size });
      }
    } catch (err) {
      throw asApiError(err);
    }
    const objects = await Promise.all(
      names.map(async ({ name, size }) => ({
        name,
        size,
        contentType: (await provider.attrs(bucket, name).catch(() => null))?.contentType ?? null,
        publicUrl: bucket.public ? provider.publicUrl(bucket, name) : null,
      })),
    );
    return { objects, next: more ? names[names.length - 1]!.name : null };
  });

  app.get("/api/buckets/:name/download", async (req, reply) => {
    const bucket = knownBucket(meta, (req.params as { name: string }).name);
    const { key } = req.query as { key?: unknown };
    if (typeof key !== "string" || key === "") throw APIError.invalidArgument("key must name the object to download");
    const provider = await startObjects();
    let data: Buffer;
    let contentType: string | undefined;
    try {
      checkObjectName(key);
      [data, { contentType }] = await Promise.all([provider.download(bucket, key), provider.attrs(bucket, key)]);
    } catch (err) {
      throw asApiError(err);
    }
    // Served from the dashboard's origin: downloaded, never rendered, so an object cannot run script there.
    return reply
      .headers({
        "content-type": contentType ?? "application/octet-stream",
        "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(path.posix.basename(key))}`,
        "content-security-policy": "sandbox",
        "cache-control": "no-store",
      })
      .send(data);
  });
}

function knownBucket(meta: AppMeta, name: string): BucketSpec {
  const spec = meta.buckets.some((b) => b.name === name) ? bucketSpec(name) : undefined;
  if (!spec) throw APIError.notFound(`no bucket "${name}"`);
  return spec;
}

function asApiError(err: unknown): unknown {
  if (err instanceof ObjectNotFound) return APIError.notFound(err.message);
  if (err instanceof InvalidArgument) return APIError.invalidArgument(err.message);
  return err;
}
