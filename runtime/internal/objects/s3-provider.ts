import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { BucketSpec, ListedObject, ObjectProvider, StoredObject } from "./provider.ts";
import { createS3Client } from "./s3-client.ts";
import { alreadyExists, isMissingObject, isPreconditionFailed, objectNotFound, s3Failure, type ObjectRef } from "./s3-errors.ts";
import type { S3Settings } from "./s3-settings.ts";
import { publicUrlOf } from "./s3-urls.ts";

/** Seams for tests; the runtime passes none. */
export interface S3ProviderOptions {
  /** A client to use instead of one built from the settings (tests add middleware to it). */
  readonly client?: S3Client;
  /** Keys asked for per ListObjectsV2 page; S3's own maximum, 1000, by default. */
  readonly listPageSize?: number;
}

/**
 * Objects in S3 or an S3-compatible store (MinIO, R2, Ceph...), one S3 bucket per
 * Encore bucket, named `bucketPrefix + name`. The buckets must exist (and have
 * versioning on, for versioned ones): like Encore's self-hosted S3 provider, this
 * one never creates or configures them.
 *
 * Unlike the local provider: public and signed URLs point at S3 (or
 * OBJECTS_PUBLIC_BASE_URL), which checks the signatures itself, not at this
 * server; list order is S3's (UTF-8 byte order); an ETag is S3's (the MD5 of the
 * content for a plain PUT). Unlike Encore's own S3 provider: an upload is one
 * PutObject (the data is already one Buffer; S3 takes up to 5 GiB so) where
 * Encore switches to multipart above 8 MiB; removing an absent object succeeds;
 * ETags are unquoted in every result (Encore leaves the one upload returns quoted).
 *
 * @example
 * const objects = s3Provider({ endpoint: null, region: "eu-west-1", credentials: null,
 *   bucketPrefix: "prod-", forcePathStyle: false, publicBaseUrl: null });
 * await objects.upload(avatars, "u/1.png", png, { contentType: "image/png" });
 */
export function s3Provider(settings: S3Settings, options: S3ProviderOptions = {}): ObjectProvider {
  const client = options.client ?? createS3Client(settings);
  const pageSize = options.listPageSize ?? 1000;
  const publicUrl = publicUrlOf(settings);
  const s3Bucket = (bucket: BucketSpec): string => settings.bucketPrefix + bucket.name;
  const ref = (bucket: BucketSpec, name: string): ObjectRef => ({ bucket: bucket.name, s3Bucket: s3Bucket(bucket), name });

  return {
    kind: "s3",

    async upload(bucket, name, data, { contentType, notExists }) {
      // Without one the SDK sends, and S3 stores, application/octet-stream: say so, as attrs() will.
      const type = contentType ?? "application/octet-stream";
      const input = { Bucket: s3Bucket(bucket), Key: name, Body: data, ContentLength: data.length, ContentType: type };
      try {
        // If-None-Match: * makes S3 refuse (412) to replace an existing object, atomically.
        // A concurrent conditional write to the same name may get 409 ConditionalRequestConflict
        // instead; it is thrown as is (retrying then gives 412 or succeeds), as Encore does.
        const res = await client.send(new PutObjectCommand(notExists ? { ...input, IfNoneMatch: "*" } : input));
        return stored(bucket, name, data.length, res.ETag, type, res.VersionId);
      } catch (err) {
        if (notExists && isPreconditionFailed(err)) throw alreadyExists(ref(bucket, name), err);
        throw s3Failure("upload", ref(bucket, name), err);
      }
    },

    async download(bucket, name) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: s3Bucket(bucket), Key: name }));
        const bytes = (await res.Body?.transformToByteArray()) ?? new Uint8Array();
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } catch (err) {
        if (isMissingObject(err)) throw objectNotFound(ref(bucket, name), err);
        throw s3Failure("download", ref(bucket, name), err);
      }
    },

    async attrs(bucket, name) {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket: s3Bucket(bucket), Key: name }));
        return stored(bucket, name, res.ContentLength ?? 0, res.ETag, res.ContentType, res.VersionId);
      } catch (err) {
        if (isMissingObject(err)) throw objectNotFound(ref(bucket, name), err);
        throw s3Failure("attrs", ref(bucket, name), err);
      }
    },

    async exists(bucket, name) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: s3Bucket(bucket), Key: name }));
        return true;
      } catch (err) {
        if (isMissingObject(err)) return false;
        throw s3Failure("exists", ref(bucket, name), err);
      }
    },

    async remove(bucket, name) {
      try {
        // S3 answers 204 for an absent key too. In a versioned bucket this adds a
        // delete marker; the earlier versions stay.
        await client.send(new DeleteObjectCommand({ Bucket: s3Bucket(bucket), Key: name }));
      } catch (err) {
        if (isMissingObject(err)) return; // some S3-compatible servers do say 404
        throw s3Failure("remove", ref(bucket, name), err);
      }
    },

    async *list(bucket, { prefix, limit }) {
      const where = { bucket: bucket.name, s3Bucket: s3Bucket(bucket) };
      let remaining = limit ?? Infinity;
      let token: string | undefined;
      while (remaining > 0) {
        const page = await client
          .send(
            new ListObjectsV2Command({
              Bucket: where.s3Bucket,
              Prefix: prefix || undefined,
              MaxKeys: Math.min(pageSize, remaining),
              ContinuationToken: token,
            }),
          )
          .catch((err: unknown) => {
            throw s3Failure("list", where, err);
          });
        for (const o of page.Contents ?? []) {
          if (remaining <= 0) return;
          remaining--;
          yield { name: o.Key!, size: o.Size ?? 0, etag: unquote(o.ETag) } satisfies ListedObject;
        }
        if (!page.IsTruncated || !page.NextContinuationToken) return;
        token = page.NextContinuationToken;
      }
    },

    publicUrl(bucket, name) {
      return publicUrl(bucket.name, s3Bucket(bucket), name);
    },

    async signedUrl(bucket, name, method, ttlSeconds) {
      const input = { Bucket: s3Bucket(bucket), Key: name };
      const command = method === "PUT" ? new PutObjectCommand(input) : new GetObjectCommand(input);
      // Signed locally, no request made. S3 caps ttlSeconds at 7 days, and a URL signed
      // with temporary credentials (a role) stops working when they expire.
      return getSignedUrl(client, command, { expiresIn: ttlSeconds });
    },

    async close() {
      client.destroy();
    },
  };
}

function stored(
  bucket: BucketSpec,
  name: string,
  size: number,
  etag: string | undefined,
  contentType: string | undefined,
  versionId: string | undefined,
): StoredObject {
  return {
    name,
    size,
    etag: unquote(etag),
    ...(contentType !== undefined ? { contentType } : {}),
    // S3 answers with a version id whenever the S3 bucket has versioning on; only
    // a bucket the app declared versioned reports it.
    ...(bucket.versioned && versionId !== undefined ? { version: versionId } : {}),
  };
}

/** S3 sends ETags quoted (`"9b2c..."`); Encore's list and attrs give them bare, and so does this provider everywhere. */
function unquote(etag: string | undefined): string {
  return etag !== undefined && etag.length >= 2 && etag.startsWith('"') && etag.endsWith('"') ? etag.slice(1, -1) : (etag ?? "");
}
