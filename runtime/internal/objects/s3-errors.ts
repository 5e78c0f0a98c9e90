// Turns what the AWS SDK throws into the provider's errors (errors.ts). The SDK
// names a service error after the S3 error code in the response body; a response
// without a body (HEAD) only has its status, which the SDK names "NotFound" for 404.
import { ObjectNotFound, PreconditionFailed } from "./errors.ts";

/** Which object an operation was about, for messages that name both bucket names. */
export interface ObjectRef {
  readonly bucket: string;
  readonly s3Bucket: string;
  readonly name: string;
}

function statusOf(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function codeOf(err: unknown): string | undefined {
  return err instanceof Error ? err.name : undefined;
}

/**
 * The object is absent. A missing bucket is not: it is a deployment mistake, and
 * reporting it as "not found" would hide it (GetObject and ListObjectsV2 say
 * NoSuchBucket). HEAD cannot tell the two apart, so exists() is false for both.
 * A 403 is never "absent" here, although S3 answers 403 for a missing object to
 * a caller without s3:ListBucket: it is a permissions problem to see.
 */
export function isMissingObject(err: unknown): boolean {
  const code = codeOf(err);
  if (code === "NoSuchBucket") return false;
  return code === "NoSuchKey" || code === "NotFound" || statusOf(err) === 404;
}

/** `If-None-Match: *` lost: the name was taken. */
export function isPreconditionFailed(err: unknown): boolean {
  return statusOf(err) === 412 || codeOf(err) === "PreconditionFailed";
}

export function objectNotFound(ref: ObjectRef, cause: unknown): ObjectNotFound {
  return new ObjectNotFound(`object "${ref.name}" not found in bucket "${ref.bucket}" (S3 bucket "${ref.s3Bucket}")`, { cause });
}

export function alreadyExists(ref: ObjectRef, cause: unknown): PreconditionFailed {
  return new PreconditionFailed(`object "${ref.name}" already exists in bucket "${ref.bucket}" (S3 bucket "${ref.s3Bucket}")`, {
    cause,
  });
}

/** Anything else: network, permissions, a missing bucket. The SDK error stays as the cause. */
export function s3Failure(operation: string, ref: Omit<ObjectRef, "name"> & { name?: string }, cause: unknown): Error {
  const object = ref.name === undefined ? "" : `"${ref.name}" in `;
  const why =
    codeOf(cause) === "NoSuchBucket"
      ? "the S3 bucket does not exist: create it, or check OBJECTS_S3_BUCKET_PREFIX"
      : `${codeOf(cause) ?? "error"}: ${cause instanceof Error ? cause.message : String(cause)}`;
  return new Error(`S3 objects: ${operation} ${object}bucket "${ref.bucket}" (S3 bucket "${ref.s3Bucket}") failed: ${why}`, {
    cause,
  });
}
