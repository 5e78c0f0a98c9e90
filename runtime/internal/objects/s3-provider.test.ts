// The S3 provider against a real S3-compatible server on loopback (s3rver, an npm
// package started in-process: `npm test` needs nothing else, runtime/test/s3-test-server.ts):
// what every object provider does (provider.cases.ts), then what is S3's own. What s3rver cannot
// do is tested on the requests the SDK builds, answered the way S3 documents:
// - conditional writes: s3rver ignores If-None-Match on PUT and overwrites, so
//   "notExists" is checked by the header sent and by the 412 S3 answers;
// - versioning: s3rver answers PutBucketVersioning with NotImplemented and never
//   sends x-amz-version-id, so "version" is checked on a stubbed S3 answer;
// - public access: s3rver serves every object to anyone (no ACLs or bucket
//   policies), so the public-URL test shows the URL names the object, not that
//   a private bucket refuses it.
import { createHash, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ObjectNotFound, PreconditionFailed } from "./errors.ts";
import { s3rverCredentials, startS3Server, type TestS3Server } from "../../test/s3-test-server.ts";
import { objectProviderCases } from "./provider.cases.ts";
import type { BucketSpec, ObjectProvider } from "./provider.ts";
import { createS3Client } from "./s3-client.ts";
import { s3Provider } from "./s3-provider.ts";
import type { S3Settings } from "./s3-settings.ts";

const files: BucketSpec = { name: "files", public: true, versioned: false };
const listing: BucketSpec = { name: "listing", public: false, versioned: false };
const pages: BucketSpec = { name: "pages", public: false, versioned: false };
const absent: BucketSpec = { name: "never-created", public: false, versioned: false };

function settingsFor(endpoint: string): S3Settings {
  return { endpoint, region: "us-east-1", credentials: s3rverCredentials, bucketPrefix: "test-", forcePathStyle: true, publicBaseUrl: null };
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe("against an S3-compatible server", () => {
  let server: TestS3Server;
  let provider: ObjectProvider;
  const listCalls: Array<{ MaxKeys?: number }> = [];

  beforeAll(async () => {
    server = await startS3Server(["test-files", "test-listing", "test-pages"]);
    const client = createS3Client(settingsFor(server.endpoint));
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === "ListObjectsV2Command") listCalls.push(args.input as { MaxKeys?: number });
        return next(args);
      },
      { step: "initialize", name: "countLists" },
    );
    provider = s3Provider(settingsFor(server.endpoint), { client, listPageSize: 2 });
  });

  afterAll(async () => {
    await provider?.close();
    await server?.close();
  });

  objectProviderCases("S3", () => ({
    provider,
    files,
    listing,
    filesInErrors: 'bucket "files" (S3 bucket "test-files")',
    publicPrefix: `${server.endpoint}/test-files/`,
    untypedContentType: "application/octet-stream",
    extendExpiry: (url) => url.searchParams.set("X-Amz-Expires", "604800"),
  }));

  test("a bucket missing on the server is an error naming it and the fix, with the SDK error as cause", async () => {
    const err = (await provider.download(absent, "a.txt").catch((e: unknown) => e)) as Error;
    expect(err).not.toBeInstanceOf(ObjectNotFound);
    expect(err.message).toMatch(/S3 bucket "test-never-created"\) failed: the S3 bucket does not exist.*OBJECTS_S3_BUCKET_PREFIX/);
    expect((err.cause as Error).name).toBe("NoSuchBucket");
    await expect(all(provider.list(absent, {}))).rejects.toThrow(/list bucket "never-created".*does not exist/);
  });

  test("list asks for pages of at most listPageSize, and never for more than the limit needs", async () => {
    const dir = `${randomUUID()}/`;
    for (const name of ["a", "b", "c", "d", "e"]) await provider.upload(pages, dir + name, Buffer.from(name), {});

    listCalls.length = 0;
    expect(await all(provider.list(pages, { prefix: dir }))).toHaveLength(5);
    expect(listCalls.map((c) => c.MaxKeys)).toEqual([2, 2, 2]); // three pages of at most two

    listCalls.length = 0;
    expect(await all(provider.list(pages, { prefix: dir, limit: 3 }))).toHaveLength(3);
    expect(listCalls.map((c) => c.MaxKeys)).toEqual([2, 1]);
  });
});

interface SentRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
}
interface S3Answer {
  readonly statusCode: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/**
 * A provider whose client sends nothing: each request the SDK built, signed and
 * would send is recorded, and answered with `answer`, which the SDK then parses
 * as it would S3's reply.
 */
function answeredBy(answer: (request: SentRequest) => S3Answer, overrides: Partial<S3Settings> = {}) {
  const settings = { ...settingsFor("http://127.0.0.1:9"), ...overrides };
  const client = createS3Client(settings);
  const sent: SentRequest[] = [];
  client.middlewareStack.add(
    () => async (args) => {
      const request = args.request as SentRequest;
      sent.push(request);
      const { statusCode, headers = {}, body = "" } = answer(request);
      return { response: { statusCode, headers, body: Readable.from([Buffer.from(body)]) } };
    },
    // Innermost: after signing, where the HTTP handler would send it, inside the response parser.
    { step: "deserialize", priority: "low", name: "answerLikeS3" },
  );
  return { provider: s3Provider(settings, { client }), sent };
}

const s3Error = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message><RequestId>r1</RequestId></Error>`;

describe("what s3rver cannot show, on the requests the SDK builds", () => {
  const versioned: BucketSpec = { name: "files", public: false, versioned: true };

  test("notExists sends If-None-Match: *, and a plain upload does not", async () => {
    const { provider, sent } = answeredBy(() => ({ statusCode: 200, headers: { etag: '"abc"' } }));
    await provider.upload(files, "a.txt", Buffer.from("x"), { notExists: true });
    await provider.upload(files, "b.txt", Buffer.from("x"), {});
    expect(sent.map((r) => [r.method, r.path, r.headers["if-none-match"]])).toEqual([
      ["PUT", "/test-files/a.txt", "*"],
      ["PUT", "/test-files/b.txt", undefined],
    ]);
  });

  test("an upload signs the SHA-256 of its body and sends no flexible checksum", async () => {
    const { provider, sent } = answeredBy(() => ({ statusCode: 200, headers: { etag: '"abc"' } }));
    await provider.upload(files, "a.txt", Buffer.from("some bytes"), { contentType: "text/plain" });
    const { headers } = sent[0]!;
    expect(headers["x-amz-content-sha256"]).toBe(createHash("sha256").update("some bytes").digest("hex"));
    expect(headers.authorization).toMatch(/SignedHeaders=.*x-amz-content-sha256/);
    expect(Object.keys(headers).filter((h) => /checksum/i.test(h))).toEqual([]);
  });

  test("S3's 412 to a notExists upload is PreconditionFailed, naming the object", async () => {
    const { provider } = answeredBy(() => ({
      statusCode: 412,
      headers: { "content-type": "application/xml" },
      body: s3Error("PreconditionFailed", "At least one of the pre-conditions you specified did not hold"),
    }));
    const err = (await provider.upload(files, "taken.txt", Buffer.from("x"), { notExists: true }).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(PreconditionFailed);
    expect(err.message).toBe('object "taken.txt" already exists in bucket "files" (S3 bucket "test-files")');
    expect((err.cause as Error).name).toBe("PreconditionFailed");
  });

  test("a versioned bucket reports the version id S3 answers with; an unversioned one does not", async () => {
    const headers = { etag: '"d41d8cd98f00b204e9800998ecf8427e"', "x-amz-version-id": "3HL4kqtJlcpXroDTDmJ+rmSpXd3dIbrHY" };
    const { provider } = answeredBy((r) => ({
      statusCode: 200,
      headers: r.method === "HEAD" ? { ...headers, "content-length": "5", "content-type": "text/plain" } : headers,
    }));
    const version = "3HL4kqtJlcpXroDTDmJ+rmSpXd3dIbrHY";
    expect((await provider.upload(versioned, "v.txt", Buffer.from("hello"), {})).version).toBe(version);
    expect(await provider.attrs(versioned, "v.txt")).toEqual({
      name: "v.txt",
      size: 5,
      etag: "d41d8cd98f00b204e9800998ecf8427e",
      contentType: "text/plain",
      version,
    });
    expect(await provider.attrs(files, "v.txt")).not.toHaveProperty("version");
  });

  test("a refusal that is not not-found is thrown with the SDK error as cause; exists does not hide it", async () => {
    const { provider } = answeredBy(() => ({
      statusCode: 403,
      headers: { "content-type": "application/xml" },
      body: s3Error("AccessDenied", "Access Denied"),
    }));
    const err = (await provider.download(files, "secret.txt").catch((e: unknown) => e)) as Error;
    expect(err).not.toBeInstanceOf(ObjectNotFound);
    expect(err.message).toBe('S3 objects: download "secret.txt" in bucket "files" (S3 bucket "test-files") failed: AccessDenied: Access Denied');
    expect((err.cause as Error).name).toBe("AccessDenied");
    await expect(provider.exists(files, "secret.txt")).rejects.toThrow(/exists "secret.txt".*failed/);
  });

  test("removing an object a server answers 404 for succeeds", async () => {
    const { provider } = answeredBy(() => ({ statusCode: 404, body: s3Error("NoSuchKey", "The specified key does not exist.") }));
    await expect(provider.remove(files, "gone.txt")).resolves.toBeUndefined();
  });

  test("a presigned PUT URL carries no checksum of the empty body it was signed without", async () => {
    const { provider, sent } = answeredBy(() => ({ statusCode: 500 }));
    const url = new URL(await provider.signedUrl(files, "up/a b.png", "PUT", 900));
    expect(url.pathname).toBe("/test-files/up/a%20b.png");
    expect([...url.searchParams.keys()].filter((k) => /checksum/i.test(k))).toEqual([]);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("host");
    expect(sent).toEqual([]); // signed locally
  });
});

describe("public URLs", () => {
  const aws: S3Settings = { ...settingsFor("unused"), endpoint: null, region: "eu-west-1", bucketPrefix: "prod-" };
  const name = "a b/été+1.png";

  test("with a public base URL: base, Encore bucket name, then each segment of the name encoded", () => {
    const provider = s3Provider({ ...aws, publicBaseUrl: "https://cdn.example.com/media/" });
    expect(provider.publicUrl(files, name)).toBe("https://cdn.example.com/media/files/a%20b/%C3%A9t%C3%A9%2B1.png");
  });

  test("with an endpoint and no base URL: path-style on the endpoint, with the S3 bucket name", () => {
    const provider = s3Provider({ ...aws, endpoint: "http://minio.internal:9000/" });
    expect(provider.publicUrl(files, name)).toBe("http://minio.internal:9000/prod-files/a%20b/%C3%A9t%C3%A9%2B1.png");
  });

  test("on AWS with no base URL: the virtual-hosted address of the S3 bucket in its region", () => {
    const provider = s3Provider(aws);
    expect(provider.publicUrl(files, name)).toBe("https://prod-files.s3.eu-west-1.amazonaws.com/a%20b/%C3%A9t%C3%A9%2B1.png");
  });
});
