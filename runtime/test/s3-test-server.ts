// Test support: a real S3-compatible server (s3rver, maintained fork
// @20minutes/s3rver; an npm package, nothing to install) on loopback, storing in
// a temporary directory. It checks SigV4 signatures, header and presigned ones,
// with its own code, so presigned URLs are really verified. Two of its bugs are
// worked around below, each for as little as possible; what it cannot do at all
// (conditional writes, versioning) is listed in runtime/internal/objects/s3-provider.test.ts.
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The one key pair s3rver accepts. */
export const s3rverCredentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const;

export interface TestS3Server {
  /** e.g. http://127.0.0.1:41873 */
  readonly endpoint: string;
  close(): Promise<void>;
}

// The package has no type declarations: this is the part the tests use.
interface KoaContext {
  path: string;
  app: object;
}
interface S3rverApp {
  middleware: Array<(ctx: KoaContext, next: () => Promise<void>) => Promise<void>>;
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: Array<{ name: string }>;
}) => S3rverApp;

const require = createRequire(import.meta.url);

/** Starts a server on a free loopback port with `buckets` created and empty. */
export async function startS3Server(buckets: readonly string[]): Promise<TestS3Server> {
  const S3rver = require("@20minutes/s3rver") as S3rverClass;
  const directory = await mkdtemp(join(tmpdir(), "s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  // s3rver (4.0.4) signs a bucket-level path-style request (ListObjectsV2 is
  // GET /bucket/) over `/bucket`, while the SDK, like S3 itself, signs the path as
  // sent, `/bucket/`: every list would be refused as SignatureDoesNotMatch. For
  // those requests only, let the signature through; object requests, which every
  // presigned URL is, stay fully checked. Koa composes `middleware` in run().
  server.middleware.unshift(async (ctx, next) => {
    if (/^\/[^/]+\/$/.test(ctx.path)) ctx.app = Object.create(ctx.app, { allowMismatchedSignatures: { value: true } });
    await next();
  });
  const restoreCrypto = singleDesFromTripleDes();
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    async close() {
      await server.close();
      restoreCrypto();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

type CipherFactory = (algorithm: string, key: Buffer, iv: Buffer | null, ...options: unknown[]) => unknown;

/**
 * s3rver encrypts its ListObjectsV2 continuation tokens with single DES, which
 * OpenSSL 3 keeps in its legacy provider, off in Node >= 17 unless started with
 * --openssl-legacy-provider: every truncated list would fail with InternalError.
 * Triple DES with the key used three times is single DES, bit for bit, and is in
 * the default provider; so while the server runs, "des" is computed that way.
 * Nothing else in the process asks for "des". Returns the undo.
 */
function singleDesFromTripleDes(): () => void {
  const crypto = require("node:crypto") as { createCipheriv: CipherFactory; createDecipheriv: CipherFactory; getCiphers(): string[] };
  if (crypto.getCiphers().includes("des")) return () => {};
  const { createCipheriv, createDecipheriv } = crypto;
  const viaTripleDes =
    (create: CipherFactory): CipherFactory =>
    (algorithm, key, iv, ...options) =>
      algorithm === "des"
        ? create("des-ede3-cbc", Buffer.concat([key, key, key]), iv, ...options)
        : create(algorithm, key, iv, ...options);
  crypto.createCipheriv = viaTripleDes(createCipheriv);
  crypto.createDecipheriv = viaTripleDes(createDecipheriv);
  return () => {
    crypto.createCipheriv = createCipheriv;
    crypto.createDecipheriv = createDecipheriv;
  };
}
