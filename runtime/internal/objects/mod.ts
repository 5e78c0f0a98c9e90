import path from "node:path";
import { ConfigError, config } from "../config/mod.ts";
import { rootLogger } from "../log/root.ts";
import { appMeta } from "../meta/load.ts";
import { ObjectsError } from "./errors.ts";
import { LocalProvider } from "./local-provider.ts";
import { bucketNameProblem } from "./names.ts";
import type { BucketSpec, ObjectProvider } from "./provider.ts";
import { signingKey } from "./signing-key.ts";
import { UrlSigner } from "./signing.ts";

/** Buckets declared by `new Bucket(...)` in this process, by name. */
const declared = new Map<string, BucketSpec>();
let provider: ObjectProvider | undefined;
let starting: Promise<ObjectProvider> | undefined;

/** Called by the Bucket constructor: records the bucket, touches no storage. */
export function declareBucket(spec: BucketSpec): void {
  const problem = bucketNameProblem(spec.name);
  if (problem) throw new ObjectsError(problem);
  if (declared.has(spec.name)) throw new ObjectsError(`bucket "${spec.name}" is declared twice; use Bucket.named("${spec.name}") to refer to it`);
  declared.set(spec.name, Object.freeze({ ...spec }));
}

/**
 * A bucket's settings: as declared in this process, else as the generated metadata
 * records them (a `Bucket.named` reference used before the declaring module loaded).
 */
export function bucketSpec(name: string): BucketSpec | undefined {
  const found = declared.get(name);
  if (found) return found;
  const meta = appMeta().buckets.find((b) => b.name === name);
  return meta && Object.freeze({ name, public: meta.public, versioned: meta.versioned });
}

/**
 * The provider, created on first use from OBJECTS_PROVIDER. The server starts it at
 * boot, so a missing OBJECTS_SIGNING_KEY in production stops start-up. The S3 provider
 * (and with it the AWS SDK) is loaded only when selected.
 */
export function startObjects(): Promise<ObjectProvider> {
  if (provider || config().objects.provider === "local") {
    try {
      return Promise.resolve(startObjectsSync());
    } catch (err) {
      return Promise.reject(err);
    }
  }
  starting ??= createS3Provider().then(
    (p) => (provider = p),
    (err: unknown) => {
      starting = undefined; // not kept: the next call tries again
      throw err;
    },
  );
  return starting;
}

/**
 * For the synchronous `publicUrl`: the local provider is made on the spot; the S3 one
 * must have been started, which the server does at boot.
 */
export function startObjectsSync(): ObjectProvider {
  if (provider) return provider;
  if (config().objects.provider === "local") return (provider = createLocalProvider());
  throw new ObjectsError("object storage has not started yet: the server starts it at boot, before any request");
}

/** The local provider, for the routes that serve it over HTTP. */
export async function localObjects(): Promise<LocalProvider> {
  const p = await startObjects();
  if (!(p instanceof LocalProvider)) throw new ObjectsError(`objects are served over HTTP by the local provider only, not by ${p.kind}`);
  return p;
}

/** At shutdown: closes the provider (the S3 client's sockets); the next use would open it again. */
export async function stopObjects(): Promise<void> {
  const p = provider ?? (await starting?.catch(() => undefined));
  provider = undefined;
  starting = undefined;
  await p?.close();
}

function createLocalProvider(): LocalProvider {
  const cfg = config();
  const root = path.join(cfg.dataDir, "objects");
  if (cfg.environmentType === "production" && !cfg.dataDirSet) {
    // The default folder lies inside the app's own: in a container, objects would go with it,
    // and a second instance would never see them.
    throw new ConfigError(
      "DATA_DIR",
      `must be set in production for the local object store: objects would otherwise be kept in ${root}, ` +
        "this machine's (or container's) own filesystem, lost with it and unseen by other instances. Set DATA_DIR " +
        "to a volume every instance mounts, or OBJECTS_PROVIDER=s3 with OBJECTS_S3_* for S3-compatible storage",
    );
  }
  const { key, generatedAt } = signingKey(cfg, root);
  if (generatedAt) {
    rootLogger().warn({ file: generatedAt }, "OBJECTS_SIGNING_KEY is not set: generated a key to sign object URLs; set it in production");
  }
  return new LocalProvider({
    root,
    publicBaseUrl: cfg.publicBaseUrl,
    publicObjectsBaseUrl: cfg.objects.publicBaseUrl,
    signer: new UrlSigner(key),
  });
}

async function createS3Provider(): Promise<ObjectProvider> {
  const { objects } = config();
  const { s3Provider } = await import("./s3-provider.ts");
  return s3Provider({ ...objects.s3, publicBaseUrl: objects.publicBaseUrl });
}
