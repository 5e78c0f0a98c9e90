import type { BucketSpec, ListedObject, ObjectProvider } from "../objects/provider.ts";

/**
 * Starts an "objects" span for one operation inside the active trace and returns what
 * ends it (with the failure, if any, and attributes learnt meanwhile); null outside a trace.
 */
export type BeginObjectsSpan = (operation: string, bucket: string, key: string | null) => EndSpan | null;
export type EndSpan = (err: unknown, attributes?: Readonly<Record<string, number>>) => void;

/** `provider` with a span around each operation that reaches storage; publicUrl, which does not, is left alone. */
export function tracedObjects(provider: ObjectProvider, begin: BeginObjectsSpan): ObjectProvider {
  const traced = async <T>(operation: string, bucket: BucketSpec, key: string, run: () => Promise<T>): Promise<T> => {
    const end = begin(operation, bucket.name, key);
    if (end === null) return run();
    try {
      const result = await run();
      end(null);
      return result;
    } catch (err) {
      end(err);
      throw err;
    }
  };
  return {
    kind: provider.kind,
    upload: (bucket, name, data, options) => traced("upload", bucket, name, () => provider.upload(bucket, name, data, options)),
    download: (bucket, name) => traced("download", bucket, name, () => provider.download(bucket, name)),
    attrs: (bucket, name) => traced("attrs", bucket, name, () => provider.attrs(bucket, name)),
    exists: (bucket, name) => traced("exists", bucket, name, () => provider.exists(bucket, name)),
    remove: (bucket, name) => traced("remove", bucket, name, () => provider.remove(bucket, name)),
    list: (bucket, options) => tracedList(provider, begin, bucket, options),
    publicUrl: (bucket, name) => provider.publicUrl(bucket, name),
    signedUrl: (bucket, name, method, ttl) =>
      traced(method === "PUT" ? "signedUploadUrl" : "signedDownloadUrl", bucket, name, () => provider.signedUrl(bucket, name, method, ttl)),
    close: () => provider.close(),
  };
}

/** One span over the whole listing, however far the caller reads it. */
async function* tracedList(
  provider: ObjectProvider,
  begin: BeginObjectsSpan,
  bucket: BucketSpec,
  options: { prefix?: string; limit?: number },
): AsyncGenerator<ListedObject> {
  const end = begin("list", bucket.name, options.prefix ?? null);
  let listed = 0;
  let failure: unknown = null;
  try {
    for await (const item of provider.list(bucket, options)) {
      listed++;
      yield item;
    }
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    end?.(failure, { "encore.objects.listed": listed });
  }
}
