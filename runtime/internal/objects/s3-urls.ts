import type { S3Settings } from "./s3-settings.ts";

/**
 * `a b/c+d.png` -> `a%20b/c%2Bd.png`: each segment encoded, the slashes kept. Stricter
 * than Encore's own public URLs, which escape only the WHATWG path set (space, `"`,
 * `#`, `<`, `>`, `?`, backtick, braces) and so leave `+`, `%`, `&` or `:` as they are;
 * both name the same object on S3, but a literal `%` or `+` would not survive a proxy
 * that decodes the path.
 */
export function encodeObjectPath(name: string): string {
  return name.split("/").map(encodeURIComponent).join("/");
}

/** Where anyone can GET an object of a public bucket: (Encore bucket, S3 bucket, name) -> URL. */
export type PublicUrlOf = (bucket: string, s3Bucket: string, name: string) => string;

/**
 * Chosen once at start, from the most to the least specific:
 * 1. OBJECTS_PUBLIC_BASE_URL (a CDN or proxy in front of the buckets): `${base}/${encore bucket}/${name}`.
 * 2. An S3-compatible endpoint: path-style `${endpoint}/${s3 bucket}/${name}`, which needs no wildcard DNS.
 * 3. AWS S3: the virtual-hosted `https://${s3 bucket}.s3.${region}.amazonaws.com/${name}`.
 * Encore's own S3 provider only has (1), per bucket, and has no public URL without it.
 * The URL works only if the store lets anonymous readers in (a bucket policy); this
 * provider does not set one.
 */
export function publicUrlOf(settings: S3Settings): PublicUrlOf {
  const base = settings.publicBaseUrl === null ? null : trimSlashes(settings.publicBaseUrl);
  if (base !== null) return (bucket, _s3Bucket, name) => `${base}/${encodeURIComponent(bucket)}/${encodeObjectPath(name)}`;
  const endpoint = settings.endpoint === null ? null : trimSlashes(settings.endpoint);
  if (endpoint !== null) return (_bucket, s3Bucket, name) => `${endpoint}/${s3Bucket}/${encodeObjectPath(name)}`;
  const region = settings.region;
  return (_bucket, s3Bucket, name) => `https://${s3Bucket}.s3.${region}.amazonaws.com/${encodeObjectPath(name)}`;
}

function trimSlashes(url: string): string {
  return url.replace(/\/+$/, "");
}
