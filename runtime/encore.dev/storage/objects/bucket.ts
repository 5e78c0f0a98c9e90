import { checkContentType, checkData, checkLimit, checkTtl } from "../../../internal/objects/arguments.ts";
import { InvalidArgument, ObjectNotFound, ObjectsError } from "../../../internal/objects/errors.ts";
import { bucketSpec, declareBucket, startObjects, startObjectsSync } from "../../../internal/objects/mod.ts";
import { checkListPrefix, checkObjectName } from "../../../internal/objects/names.ts";
import type { BucketSpec, ObjectProvider, StoredObject } from "../../../internal/objects/provider.ts";
import { recorder } from "../../../internal/tracing/mod.ts";
import {
  BucketPerms,
  type Attrser,
  type Downloader,
  type Lister,
  type PublicUrler,
  type Remover,
  type SignedDownloader,
  type SignedUploader,
  type Uploader,
} from "./refs.ts";
import type {
  AttrsOptions,
  BucketConfig,
  DeleteOptions,
  DownloadOptions,
  DownloadUrlOptions,
  ExistsOptions,
  ListEntry,
  ListOptions,
  ObjectAttrs,
  SignedDownloadUrl,
  SignedUploadUrl,
  UploadOptions,
  UploadUrlOptions,
} from "./types.ts";

/** A single string literal: neither `string` nor a union. */
type StringLiteral<T extends string> = string extends T ? never : [T] extends [UnionMember<T>] ? T : never;
type UnionMember<T, All = T> = T extends unknown ? ([All] extends [T] ? T : never) : never;

// `Bucket.named` builds a handle with this config, which the constructor knows not to declare.
const reference: BucketConfig = Object.freeze({});

/**
 * An object storage bucket. Declaring one is inert: it records the bucket, and storage is
 * touched on first use (the local filesystem, or S3 with OBJECTS_PROVIDER=s3).
 *
 * @example
 * const avatars = new Bucket("avatars", { public: true });
 * await avatars.upload("u/1.png", png, { contentType: "image/png" });
 * avatars.publicUrl("u/1.png"); // "http://localhost:4000/objects/avatars/u/1.png"
 */
export class Bucket
  extends BucketPerms
  implements Uploader, SignedUploader, Downloader, SignedDownloader, Attrser, Lister, Remover, PublicUrler
{
  private readonly bucketName: string;

  constructor(name: string, cfg?: BucketConfig) {
    super();
    this.bucketName = name;
    if (cfg !== reference) declareBucket({ name, public: cfg?.public === true, versioned: cfg?.versioned === true });
  }

  /** A handle on a bucket declared elsewhere with `new Bucket(name, ...)`. */
  static named<name extends string>(name: StringLiteral<name>): Bucket {
    return new Bucket(name, reference);
  }

  async *list(options: ListOptions): AsyncGenerator<ListEntry> {
    checkListPrefix(options?.prefix);
    const limit = checkLimit(options?.limit);
    const spec = this.spec();
    for await (const { name, size, etag } of storage(await startObjects()).list(spec, { prefix: options?.prefix, limit })) {
      yield { name, size, etag };
    }
  }

  async exists(name: string, options?: ExistsOptions): Promise<boolean> {
    const [spec, provider] = await this.target(name);
    if (options?.version === undefined || !spec.versioned) return provider.exists(spec, name);
    try {
      return (await latest(provider, spec, name, options.version)) !== undefined;
    } catch (err) {
      if (err instanceof ObjectNotFound) return false;
      throw err;
    }
  }

  /** Throws ObjectNotFound when the object does not exist. */
  async attrs(name: string, options?: AttrsOptions): Promise<ObjectAttrs> {
    const [spec, provider] = await this.target(name);
    return attrsOf(await latest(provider, spec, name, options?.version));
  }

  async upload(name: string, data: Buffer, options?: UploadOptions): Promise<ObjectAttrs> {
    const [spec, provider] = await this.target(name);
    const bytes = checkData(data);
    const contentType = checkContentType(options?.contentType);
    const stored = await provider.upload(spec, name, bytes, { contentType, notExists: options?.preconditions?.notExists === true });
    return attrsOf(stored);
  }

  /** A URL anyone holding it can PUT the object's content to, until `ttl` seconds from now. */
  async signedUploadUrl(name: string, options?: UploadUrlOptions): Promise<SignedUploadUrl> {
    const ttl = checkTtl(options?.ttl);
    const [spec, provider] = await this.target(name);
    return { url: await provider.signedUrl(spec, name, "PUT", ttl) };
  }

  /** A URL anyone holding it can GET the object from, until `ttl` seconds from now. */
  async signedDownloadUrl(name: string, options?: DownloadUrlOptions): Promise<SignedDownloadUrl> {
    const ttl = checkTtl(options?.ttl);
    const [spec, provider] = await this.target(name);
    return { url: await provider.signedUrl(spec, name, "GET", ttl) };
  }

  /** Throws ObjectNotFound when the object does not exist. */
  async download(name: string, options?: DownloadOptions): Promise<Buffer> {
    const [spec, provider] = await this.target(name);
    // An upload between the two reads would be returned: version reads are best effort (README).
    if (options?.version !== undefined && spec.versioned) await latest(provider, spec, name, options.version);
    return provider.download(spec, name);
  }

  /** Removing an object that does not exist is not an error. */
  async remove(name: string, options?: DeleteOptions): Promise<void> {
    const [spec, provider] = await this.target(name);
    if (options?.version !== undefined && spec.versioned) {
      try {
        await latest(provider, spec, name, options.version);
      } catch (err) {
        if (err instanceof ObjectNotFound) return;
        throw err;
      }
    }
    await provider.remove(spec, name);
  }

  /**
   * Where anyone can fetch the object; throws for a bucket that is not public. The empty
   * name gives the bucket's base, where every object's URL starts: Encore joins base and
   * name without checking the name (runtimes/core/src/objects/mod.rs, public_url).
   */
  publicUrl(name: string): string {
    if (name !== "") checkObjectName(name);
    const spec = this.spec();
    if (!spec.public) {
      throw new InvalidArgument(`bucket "${spec.name}" is not public: declare it with { public: true }, or hand out signedDownloadUrl()`);
    }
    return startObjectsSync().publicUrl(spec, name);
  }

  ref<P extends BucketPerms>(): P {
    return this as unknown as P;
  }

  private spec(): BucketSpec {
    const spec = bucketSpec(this.bucketName);
    if (!spec) throw new ObjectsError(`bucket "${this.bucketName}" is not declared: no \`new Bucket("${this.bucketName}")\` ran`);
    return spec;
  }

  /** Checks the name before anything touches storage. */
  private async target(name: string): Promise<[BucketSpec, ObjectProvider]> {
    checkObjectName(name);
    const spec = this.spec();
    return [spec, storage(await startObjects())];
  }
}

/** The provider, with an "objects" span around each operation while tracing is on. */
function storage(provider: ObjectProvider): ObjectProvider {
  return recorder === null ? provider : recorder.objects(provider);
}

/**
 * The object's attributes, if `version` (when given, in a versioned bucket) is its latest:
 * providers read only the latest version, so an older one is reported as not found.
 */
async function latest(provider: ObjectProvider, spec: BucketSpec, name: string, version: string | undefined): Promise<StoredObject> {
  const current = await provider.attrs(spec, name);
  if (version !== undefined && spec.versioned && current.version !== version) {
    throw new ObjectNotFound(`version "${version}" of object "${name}" is not available: only the latest version can be read`);
  }
  return current;
}

function attrsOf(stored: StoredObject): ObjectAttrs {
  const { name, size, etag, contentType, version } = stored;
  return { name, size, etag, ...(contentType !== undefined && { contentType }), ...(version !== undefined && { version }) };
}
