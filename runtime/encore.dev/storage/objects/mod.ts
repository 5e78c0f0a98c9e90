// encore.dev/storage/objects: buckets on the local filesystem or S3-compatible storage.
export { Bucket } from "./bucket.ts";
export type {
  BucketConfig,
  ObjectAttrs,
  UploadOptions,
  ListEntry,
  SignedDownloadUrl,
  SignedUploadUrl,
  AttrsOptions,
  DownloadOptions,
  ExistsOptions,
  ListOptions,
  DeleteOptions,
  DownloadUrlOptions,
  UploadUrlOptions,
} from "./types.ts";
// InvalidArgument is thrown here too (bad names, ttl), though encore.dev does not export it.
export { ObjectsError, ObjectNotFound, PreconditionFailed, InvalidArgument } from "../../../internal/objects/errors.ts";
export type {
  BucketPerms,
  Uploader,
  SignedUploader,
  Downloader,
  SignedDownloader,
  Attrser,
  Lister,
  ReadWriter,
  PublicUrler,
  Remover,
} from "./refs.ts";
