import { S3Client } from "@aws-sdk/client-s3";
import type { S3Settings } from "./s3-settings.ts";

/**
 * The SDK client for `settings`, made once at start and shared by every bucket.
 *
 * Checksums are only sent where S3 requires them ("WHEN_REQUIRED"). With the SDK's
 * default ("WHEN_SUPPORTED") a presigned PUT URL carries the CRC32 of the empty body
 * the URL was signed without (`x-amz-checksum-crc32=AAAAAA==`), so S3, R2 and MinIO
 * refuse the real upload made through it; and several S3-compatible servers reject
 * the flexible-checksum headers outright. Integrity does not depend on them: SigV4
 * signs the SHA-256 of every body this provider sends (`x-amz-content-sha256`).
 *
 * The SDK waits forever by default: a store that stops answering would hold each
 * request that touches it. The socket timeout counts idle time, so a long transfer
 * that keeps moving is never cut.
 */
export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: { ...settings.credentials } } : {}),
    forcePathStyle: settings.forcePathStyle,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: { connectionTimeout: 5_000, socketTimeout: 30_000 },
  });
}
