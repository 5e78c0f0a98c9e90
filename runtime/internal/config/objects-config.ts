import { ConfigError, parseBool, parseHttpUrl, type Env } from "./values.ts";

/** Object storage settings (OBJECTS_*), part of RuntimeConfig. The S3 provider takes `s3` plus `publicBaseUrl` (its S3Settings). */
export interface ObjectsConfig {
  /** Where buckets live: the local filesystem under DATA_DIR, or S3-compatible storage. */
  readonly provider: "local" | "s3";
  /** OBJECTS_SIGNING_KEY: signs the local provider's URLs. Null: generated (never in production). */
  readonly signingKey: string | null;
  /** OBJECTS_PUBLIC_BASE_URL without a trailing slash: public object URLs are `<base>/<bucket>/<name>`. */
  readonly publicBaseUrl: string | null;
  readonly s3: S3Config;
}

export interface S3Config {
  /** An S3-compatible server (MinIO, R2, ...); null: AWS. */
  readonly endpoint: string | null;
  readonly region: string;
  /** Null: the AWS SDK's default credential chain (environment, profile, instance role). */
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | null;
  /** Prepended to every bucket name: "prod-" stores bucket "qr-codes" in S3 bucket "prod-qr-codes". */
  readonly bucketPrefix: string;
  /** Path-style URLs (endpoint/bucket/key), which most S3-compatible servers need. */
  readonly forcePathStyle: boolean;
}

/** Bucket names are built from the prefix, so it must keep them within S3's naming rules. */
const bucketPrefixPattern = /^(?:[a-z0-9][a-z0-9.-]*)?$/;
const reservedPrefixes = ["xn--", "sthree-", "amzn-s3-demo-"];

export function parseObjectsConfig(env: Env): ObjectsConfig {
  const endpoint = parseBaseUrl("OBJECTS_S3_ENDPOINT", env.OBJECTS_S3_ENDPOINT);
  return Object.freeze({
    provider: parseProvider(env.OBJECTS_PROVIDER),
    signingKey: parseSigningKey(env.OBJECTS_SIGNING_KEY),
    publicBaseUrl: parseBaseUrl("OBJECTS_PUBLIC_BASE_URL", env.OBJECTS_PUBLIC_BASE_URL),
    s3: Object.freeze({
      endpoint,
      region: parseRegion(env.OBJECTS_S3_REGION),
      credentials: parseCredentials(env.OBJECTS_S3_ACCESS_KEY_ID, env.OBJECTS_S3_SECRET_ACCESS_KEY),
      bucketPrefix: parseBucketPrefix(env.OBJECTS_S3_BUCKET_PREFIX),
      // Virtual-host style (bucket.endpoint) needs DNS per bucket, which S3-compatible servers rarely have.
      forcePathStyle: parseBool("OBJECTS_S3_FORCE_PATH_STYLE", env.OBJECTS_S3_FORCE_PATH_STYLE, endpoint !== null),
    }),
  });
}

function parseProvider(raw: string | undefined): ObjectsConfig["provider"] {
  const v = raw?.trim().toLowerCase() || "local";
  if (v !== "local" && v !== "s3") throw new ConfigError("OBJECTS_PROVIDER", `must be local or s3, got "${raw}"`);
  return v;
}

function parseSigningKey(raw: string | undefined): string | null {
  if (raw === undefined || raw === "") return null;
  if (raw.trim().length < 32) {
    throw new ConfigError("OBJECTS_SIGNING_KEY", "must be at least 32 characters (for example: openssl rand -base64 32)");
  }
  return raw.trim();
}

/** An absolute http(s) URL without a query, fragment or trailing slash, or null when unset. */
function parseBaseUrl(name: string, raw: string | undefined): string | null {
  const url = parseHttpUrl(name, raw);
  if (url === null) return null;
  if (url.search || url.hash) throw new ConfigError(name, "must not have a query string or fragment");
  return url.href.replace(/\/+$/, "");
}

function parseRegion(raw: string | undefined): string {
  const region = raw?.trim() || "us-east-1";
  if (!/^[a-z0-9-]+$/.test(region)) throw new ConfigError("OBJECTS_S3_REGION", `must look like us-east-1, got "${raw}"`);
  return region;
}

function parseCredentials(id: string | undefined, secret: string | undefined): S3Config["credentials"] {
  const accessKeyId = id?.trim() ?? "";
  const secretAccessKey = secret?.trim() ?? "";
  if (!accessKeyId && !secretAccessKey) return null;
  if (!accessKeyId) throw new ConfigError("OBJECTS_S3_ACCESS_KEY_ID", "must be set together with OBJECTS_S3_SECRET_ACCESS_KEY");
  if (!secretAccessKey) throw new ConfigError("OBJECTS_S3_SECRET_ACCESS_KEY", "must be set together with OBJECTS_S3_ACCESS_KEY_ID");
  return Object.freeze({ accessKeyId, secretAccessKey });
}

function parseBucketPrefix(raw: string | undefined): string {
  const prefix = raw?.trim() ?? "";
  const problem = !bucketPrefixPattern.test(prefix)
    ? "may hold only a-z, 0-9, '.' and '-', starting with a letter or digit"
    : prefix.includes("..")
      ? "must not hold two dots in a row"
      : prefix.length > 60
        ? "must be at most 60 characters (S3 bucket names are at most 63)"
        : reservedPrefixes.find((r) => prefix.startsWith(r))
          ? "must not start with a prefix S3 reserves (xn--, sthree-, amzn-s3-demo-)"
          : null;
  if (problem) throw new ConfigError("OBJECTS_S3_BUCKET_PREFIX", `${problem}, got "${raw}"`);
  return prefix;
}
