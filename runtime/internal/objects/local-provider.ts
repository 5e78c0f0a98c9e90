import { createHash, randomBytes } from "node:crypto";
import { link, mkdir, open, rename, rm, rmdir, stat, unlink, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { objectsPath } from "../meta/runtime-routes.ts";
import { InvalidArgument, ObjectNotFound, PreconditionFailed } from "./errors.ts";
import { encodeHeader, readHeader, type ObjectHeader } from "./local-format.ts";
import { walkObjects } from "./local-list.ts";
import { objectFile } from "./local-paths.ts";
import { bucketNamePattern } from "./names.ts";
import type { BucketSpec, ListedObject, ObjectProvider, StoredObject } from "./provider.ts";
import type { SignedMethod, UrlSigner } from "./signing.ts";

export interface LocalProviderOptions {
  /** Folder holding one folder per bucket: <DATA_DIR>/objects. */
  readonly root: string;
  /** PUBLIC_BASE_URL: this server, which serves /objects/<bucket>/<name>. */
  readonly publicBaseUrl: string;
  /** OBJECTS_PUBLIC_BASE_URL (a CDN in front of /objects), or null for publicBaseUrl + "/objects". */
  readonly publicObjectsBaseUrl: string | null;
  readonly signer: UrlSigner;
}

/** Hex characters of an ETag: the start of the content's SHA-256. */
const etagLength = 32;

/** Path of an object's URL on this server: each segment percent-encoded, "/" kept. */
export function objectUrlPath(bucket: string, name: string): string {
  return `${objectsPath}/${bucket}/${name.split("/").map(encodeURIComponent).join("/")}`;
}

/** An object opened for serving: its header, and its content from the same open file. */
export interface OpenedObject {
  readonly header: ObjectHeader;
  /** The content; reading it closes the file. */
  content(): Readable;
  close(): Promise<void>;
}

/**
 * Buckets as folders under DATA_DIR (layout in local-paths.ts, file format in
 * local-format.ts). Writes go to a temporary file in the object's own folder and are
 * then renamed over the object, so readers see the old object or the new one, never a
 * mix; `notExists` uses link(), which fails if the name exists, so of two concurrent
 * uploads exactly one wins. No fsync: like the embedded database, this survives a
 * crash of the process but not necessarily a power loss.
 * Versioned buckets keep only the latest version; each upload gets a new version id.
 */
export class LocalProvider implements ObjectProvider {
  readonly kind = "local";

  constructor(readonly options: LocalProviderOptions) {}

  get signer(): UrlSigner {
    return this.options.signer;
  }

  async upload(bucket: BucketSpec, name: string, data: Buffer, options: { contentType?: string; notExists?: boolean }): Promise<StoredObject> {
    return this.uploadStream(bucket, name, [data], { ...options, size: data.length });
  }

  /**
   * Stores `content`, which must be exactly `size` bytes, chunk by chunk: the HTTP route
   * streams a signed upload here, so a body is never held whole in memory. The file is
   * complete and its header right before it gets the object's name; content that fails or
   * ends early (a client gone mid-upload) leaves no object and no temporary file behind.
   */
  async uploadStream(
    bucket: BucketSpec,
    name: string,
    content: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    options: { size: number; contentType?: string; notExists?: boolean },
  ): Promise<StoredObject> {
    const file = this.fileOf(bucket, name);
    const { size } = options;
    const version = bucket.versioned ? `${Date.now().toString(36)}-${randomBytes(6).toString("hex")}` : undefined;
    const headerWith = (etag: string): ObjectHeader => ({ size, etag, contentType: options.contentType, version });
    let header = headerWith("0".repeat(etagLength));
    const temp = await writeTemporary(path.dirname(file), async (handle) => {
      // The ETag is known only at the end. It always has etagLength characters, so the
      // final header has the placeholder's length and is written over it in place.
      const placeholder = encodeHeader(header);
      await handle.writeFile(placeholder);
      const hash = createHash("sha256");
      let received = 0;
      for await (const chunk of content) {
        received += chunk.length;
        if (received > size) throw new InvalidArgument(`the content is longer than the ${size} bytes announced`);
        hash.update(chunk);
        await handle.writeFile(chunk); // at the current position, after the previous chunk
      }
      if (received !== size) throw new InvalidArgument(`the content ended after ${received} of the ${size} bytes announced`);
      header = headerWith(hash.digest("hex").slice(0, etagLength));
      await writeAt(handle, encodeHeader(header), 0);
    });
    try {
      if (options.notExists) await link(temp, file);
      else await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      if ((err as NodeJS.ErrnoException).code === "EEXIST") {
        throw new PreconditionFailed(`object "${name}" already exists in bucket "${bucket.name}"`, { cause: err });
      }
      throw err;
    }
    // After link() the temporary name is a second link to the object; after rename() it is gone.
    if (options.notExists) await rm(temp, { force: true });
    return { name, ...header };
  }

  async download(bucket: BucketSpec, name: string): Promise<Buffer> {
    const { handle, header, dataOffset } = await this.openFile(bucket, name);
    try {
      const content = Buffer.alloc(header.size);
      await handle.read(content, 0, header.size, dataOffset);
      return content;
    } finally {
      await handle.close();
    }
  }

  async attrs(bucket: BucketSpec, name: string): Promise<StoredObject> {
    const { handle, header } = await this.openFile(bucket, name);
    await handle.close();
    return { name, ...header };
  }

  async exists(bucket: BucketSpec, name: string): Promise<boolean> {
    const found = await stat(this.fileOf(bucket, name)).catch(absentAs(null));
    return found?.isFile() ?? false;
  }

  async remove(bucket: BucketSpec, name: string): Promise<void> {
    const file = this.fileOf(bucket, name);
    await unlink(file).catch(absentAs(undefined));
    // Empty folders left behind are removed up to the bucket's own; rmdir refuses a folder
    // that is not empty, so one another upload is writing into stays.
    const bucketDir = this.bucketDir(bucket);
    for (let dir = path.dirname(file); dir !== bucketDir; dir = path.dirname(dir)) {
      if (!(await rmdir(dir).then(() => true, () => false))) break;
    }
  }

  async *list(bucket: BucketSpec, options: { prefix?: string; limit?: number }): AsyncGenerator<ListedObject> {
    let left = options.limit ?? Infinity;
    if (left <= 0) return;
    for await (const found of walkObjects(this.bucketDir(bucket), options.prefix ?? "")) {
      const header = await headerOf(found.file);
      if (!header) continue; // removed since its folder was read
      yield { name: found.name, size: header.size, etag: header.etag };
      if (--left === 0) return;
    }
  }

  publicUrl(bucket: BucketSpec, name: string): string {
    const base = this.options.publicObjectsBaseUrl;
    return base ? base + objectUrlPath(bucket.name, name).slice(objectsPath.length) : this.options.publicBaseUrl + objectUrlPath(bucket.name, name);
  }

  async signedUrl(bucket: BucketSpec, name: string, method: SignedMethod, ttlSeconds: number): Promise<string> {
    this.fileOf(bucket, name); // a name local storage cannot hold fails now, not when the URL is used
    const { expires, signature } = this.signer.sign(method, bucket.name, name, ttlSeconds);
    return `${this.options.publicBaseUrl}${objectUrlPath(bucket.name, name)}?expires=${expires}&signature=${signature}`;
  }

  /** For the HTTP routes: the header, and the content read from the same open file. */
  async openObject(bucket: BucketSpec, name: string): Promise<OpenedObject> {
    const { handle, header, dataOffset } = await this.openFile(bucket, name);
    return {
      header,
      content: () => {
        if (header.size > 0) return handle.createReadStream({ start: dataOffset, end: dataOffset + header.size - 1 });
        void handle.close(); // a stream cannot have an end before its start
        return Readable.from([]);
      },
      close: () => handle.close(),
    };
  }

  async close(): Promise<void> {
    // Nothing is held open between calls.
  }

  private async openFile(bucket: BucketSpec, name: string): Promise<{ handle: FileHandle; header: ObjectHeader; dataOffset: number }> {
    const file = this.fileOf(bucket, name);
    const handle = await open(file, "r").catch(absentAs(null));
    if (!handle) throw new ObjectNotFound(`object "${name}" not found in bucket "${bucket.name}"`);
    try {
      return { handle, ...(await readHeader(handle, file)) };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  private bucketDir(bucket: BucketSpec): string {
    if (!bucketNamePattern.test(bucket.name)) throw new InvalidArgument(`invalid bucket name "${bucket.name}"`);
    return path.join(this.options.root, bucket.name);
  }

  private fileOf(bucket: BucketSpec, name: string): string {
    return objectFile(this.bucketDir(bucket), name);
  }
}

/** A temporary file in `dir` that `fill` wrote; same folder, so the rename or link that follows is atomic. */
async function writeTemporary(dir: string, fill: (handle: FileHandle) => Promise<void>): Promise<string> {
  // A concurrent remove may prune the folder between mkdir and open: make it again.
  for (let attempt = 1; ; attempt++) {
    await mkdir(dir, { recursive: true });
    const temp = path.join(dir, `.tmp-${randomBytes(8).toString("hex")}`);
    let handle: FileHandle;
    try {
      handle = await open(temp, "wx", 0o644);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT" && attempt < 5) continue;
      throw err;
    }
    try {
      await fill(handle);
    } catch (err) {
      await handle.close();
      await rm(temp, { force: true });
      throw err;
    }
    await handle.close();
    return temp;
  }
}

/** Writes all of `data` at `position`: a single write may write only part of it. */
async function writeAt(handle: FileHandle, data: Buffer, position: number): Promise<void> {
  for (let done = 0; done < data.length; ) {
    const { bytesWritten } = await handle.write(data, done, data.length - done, position + done);
    done += bytesWritten;
  }
}

/** The header of an object file, or null when the file is gone. */
async function headerOf(file: string): Promise<ObjectHeader | null> {
  const handle = await open(file, "r").catch(absentAs(null));
  if (!handle) return null;
  try {
    return (await readHeader(handle, file)).header;
  } finally {
    await handle.close();
  }
}

/** For `.catch`: "no such file" (or a file where a folder was expected) becomes `value`. */
function absentAs<T>(value: T): (err: unknown) => T {
  return (err) => {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return value;
    throw err;
  };
}
