/**
 * The one small interface every object store sits behind: the local filesystem
 * (default) or S3-compatible storage. Buckets are addressed by their Encore name;
 * a provider maps it to its own (a folder, an S3 bucket name). Object names reach
 * a provider already validated (names.ts).
 *
 * Errors: ObjectNotFound and PreconditionFailed from ./errors.ts; anything else
 * (I/O, network) is thrown as is.
 */
export interface ObjectProvider {
  readonly kind: "local" | "s3";
  /** Stores `data` whole under `name`; with `notExists`, fails with PreconditionFailed if the name is taken. */
  upload(bucket: BucketSpec, name: string, data: Buffer, options: { contentType?: string; notExists?: boolean }): Promise<StoredObject>;
  /** The object's bytes; ObjectNotFound if absent. */
  download(bucket: BucketSpec, name: string): Promise<Buffer>;
  /** The object's attributes; ObjectNotFound if absent. */
  attrs(bucket: BucketSpec, name: string): Promise<StoredObject>;
  exists(bucket: BucketSpec, name: string): Promise<boolean>;
  /** Deletes the object; an absent one is not an error (as in S3), so a retried cleanup succeeds. */
  remove(bucket: BucketSpec, name: string): Promise<void>;
  /** Objects in name order, optionally only those starting with `prefix`, at most `limit`. */
  list(bucket: BucketSpec, options: { prefix?: string; limit?: number }): AsyncGenerator<ListedObject>;
  /** Where anyone can fetch the object of a public bucket (the caller has checked it is public). */
  publicUrl(bucket: BucketSpec, name: string): string;
  /** A URL that allows one PUT (upload) or GET (download) of `name` until `ttlSeconds` from now. */
  signedUrl(bucket: BucketSpec, name: string, method: "PUT" | "GET", ttlSeconds: number): Promise<string>;
  close(): Promise<void>;
}

/** A bucket as the app declares it. */
export interface BucketSpec {
  readonly name: string;
  readonly public: boolean;
  readonly versioned: boolean;
}

export interface StoredObject {
  readonly name: string;
  readonly size: number;
  /** Changes whenever the content does (quoted or not, as the store gives it). */
  readonly etag: string;
  readonly contentType?: string;
  /** Only for versioned buckets. */
  readonly version?: string;
}

export interface ListedObject {
  readonly name: string;
  readonly size: number;
  readonly etag: string;
}
