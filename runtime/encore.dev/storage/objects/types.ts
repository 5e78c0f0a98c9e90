// The options and results of a bucket's operations, shared by the Bucket class (bucket.ts) and the
// permission types of its references (refs.ts).

export interface BucketConfig {
  /** Objects can be fetched by anyone at `publicUrl(name)`. Default false. */
  public?: boolean;
  /** Keep versions of each object. Default false; see the README for what each provider keeps. */
  versioned?: boolean;
}

export interface ListOptions {
  /** Only objects whose names start with this. */
  prefix?: string;
  /** At most this many objects; no limit when unset. */
  limit?: number;
}

/** `version` options: on a versioned bucket, only the latest version can be read (see README). */
export interface AttrsOptions {
  version?: string;
}
export interface ExistsOptions {
  version?: string;
}
export interface DeleteOptions {
  version?: string;
}
export interface DownloadOptions {
  version?: string;
}

export interface ObjectAttrs {
  name: string;
  size: number;
  /** Only in versioned buckets. */
  version?: string;
  etag: string;
  contentType?: string;
}

export interface ListEntry {
  name: string;
  size: number;
  etag: string;
}

export interface UploadOptions {
  contentType?: string;
  preconditions?: {
    /** Fail with PreconditionFailed if the name is taken; atomic against concurrent uploads. */
    notExists?: boolean;
  };
}

/** `ttl`: seconds the URL stays valid; default one hour, at most seven days. */
export interface UploadUrlOptions {
  ttl?: number;
}
export interface SignedUploadUrl {
  url: string;
}
export interface DownloadUrlOptions {
  ttl?: number;
}
export interface SignedDownloadUrl {
  url: string;
}
