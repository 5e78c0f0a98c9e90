/**
 * How the S3-compatible object provider reaches its store. Built once at start by
 * the configuration (from the OBJECTS_S3_* variables and OBJECTS_PUBLIC_BASE_URL)
 * and handed to `s3Provider`; nothing here is read again per request.
 *
 * @example
 * const settings: S3Settings = {
 *   endpoint: "http://127.0.0.1:9000", region: "us-east-1",
 *   credentials: { accessKeyId: "key", secretAccessKey: "secret" },
 *   bucketPrefix: "prod-", forcePathStyle: true, publicBaseUrl: null,
 * };
 */
export interface S3Settings {
  /** An S3-compatible server (MinIO, R2, Ceph...), e.g. `http://127.0.0.1:9000`. null: AWS S3 itself. */
  readonly endpoint: string | null;
  /** The signing region; S3-compatible servers usually accept any, commonly `us-east-1`. */
  readonly region: string;
  /** null: the SDK's default chain (AWS_* variables, shared config files, instance or task role). */
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | null;
  /** Prepended to each Encore bucket name to give the S3 bucket name (`prod-` + `avatars`). */
  readonly bucketPrefix: string;
  /** Address buckets as `endpoint/bucket/key` rather than `bucket.endpoint/key` (most self-hosted servers need it). */
  readonly forcePathStyle: boolean;
  /** Public objects are served from `${publicBaseUrl}/${encore bucket}/${name}` (a CDN or proxy) when set. */
  readonly publicBaseUrl: string | null;
}
