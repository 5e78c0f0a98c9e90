// The local provider: what every object provider does (provider.cases.ts), its signed and
// public URLs served by the /objects routes on loopback; then what is its own: its files,
// its atomicity and its limits. The Bucket API on top of it is tested in
// encore.dev/storage/objects/bucket.test.ts.
import Fastify from "fastify";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { text } from "node:stream/consumers";
import { errorHandler } from "../server/pipeline/errors.ts";
import { objectRoutes } from "../server/runtime-routes/objects.ts";
import { InvalidArgument, ObjectsError } from "./errors.ts";
import { LocalProvider } from "./local-provider.ts";
import { decodeSegment, encodeSegment, objectFile } from "./local-paths.ts";
import { objectProviderCases } from "./provider.cases.ts";
import type { BucketSpec, ListedObject } from "./provider.ts";
import { UrlSigner } from "./signing.ts";

const root = mkdtempSync(path.join(tmpdir(), "local-objects-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const provider = new LocalProvider({
  root,
  publicBaseUrl: "https://sho.rt",
  publicObjectsBaseUrl: null,
  signer: new UrlSigner(randomBytes(32)),
});
const bucket: BucketSpec = { name: "pics", public: true, versioned: false };
const bucketDir = path.join(root, "pics");

describe("served over HTTP", () => {
  const files: BucketSpec = { name: "files", public: true, versioned: false };
  const listing: BucketSpec = { name: "listing", public: false, versioned: false };
  const app = Fastify();
  let served: LocalProvider;

  beforeAll(async () => {
    app.setErrorHandler(errorHandler(false));
    const buckets = new Map([files, listing].map((b) => [b.name, b]));
    await app.register(objectRoutes({ store: async () => served, bucket: (name) => buckets.get(name) }));
    const base = await app.listen({ host: "127.0.0.1", port: 0 });
    served = new LocalProvider({ root: path.join(root, "served"), publicBaseUrl: base, publicObjectsBaseUrl: null, signer: new UrlSigner(randomBytes(32)) });
  });
  afterAll(() => app.close());

  objectProviderCases("local", () => ({
    provider: served,
    files,
    listing,
    filesInErrors: 'bucket "files"',
    publicPrefix: `${served.options.publicBaseUrl}/objects/files/`,
    untypedContentType: undefined,
    extendExpiry: (url) => url.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 7 * 24 * 3600)),
  }));
});

async function names(list: AsyncGenerator<ListedObject>): Promise<string[]> {
  const found: string[] = [];
  for await (const o of list) found.push(o.name);
  return found;
}

describe("local layout", () => {
  test("an object is one file under <root>/<bucket>/, named after it, holding a header and the bytes", async () => {
    await provider.upload(bucket, "cats/tom.png", Buffer.from("PNG..."), { contentType: "image/png" });
    const file = path.join(bucketDir, "cats", "tom.png@");
    const raw = readFileSync(file);
    expect(raw.subarray(0, 4).toString()).toBe("EOB1");
    expect(raw.subarray(-6).toString()).toBe("PNG...");
    expect(readdirSync(path.join(bucketDir, "cats"))).toEqual(["tom.png@"]); // the temporary file is gone
  });

  test("segments are escaped so that no filesystem can merge, hide or climb out with them", () => {
    expect(encodeSegment("Tom.PNG")).toBe("%54om.%50%4E%47");
    expect(encodeSegment(".hidden")).toBe("%2Ehidden");
    expect(encodeSegment("..")).toBe("%2E.");
    expect(encodeSegment("é b")).toBe("%C3%A9%20b");
    for (const s of ["Tom.PNG", ".hidden", "é b", "a@b", "%41", "~x"]) expect(decodeSegment(encodeSegment(s))).toBe(s);
    expect(decodeSegment(".tmp-1234")).toBeNull();
    expect(decodeSegment("%2e")).toBeNull(); // not the form encodeSegment writes
  });

  test("the resolved path of any name stays inside the bucket folder", () => {
    for (const name of ["../x", "a/../../b", "..", "/etc/passwd", "a/..", "%2e%2e%2fx"]) {
      const file = objectFile(bucketDir, name);
      expect(file.startsWith(bucketDir + path.sep)).toBe(true);
    }
  });

  test("an object `a` and objects under `a/` live side by side, as in S3", async () => {
    await provider.upload(bucket, "side", Buffer.from("file"), {});
    await provider.upload(bucket, "side/inner", Buffer.from("nested"), {});
    expect((await provider.download(bucket, "side")).toString()).toBe("file");
    expect(await names(provider.list(bucket, { prefix: "side" }))).toEqual(["side", "side/inner"]);
  });

  test("removing the last object of a folder removes the emptied folders", async () => {
    await provider.upload(bucket, "deep/er/still/x", Buffer.from("x"), {});
    await provider.remove(bucket, "deep/er/still/x");
    expect(readdirSync(bucketDir)).not.toContain("deep");
  });

  test("a name part too long for a filesystem is refused with InvalidArgument", async () => {
    await expect(provider.upload(bucket, "ü".repeat(50), Buffer.from("x"), {})).rejects.toBeInstanceOf(InvalidArgument);
    await expect(provider.signedUrl(bucket, "x".repeat(300), "GET", 60)).rejects.toBeInstanceOf(InvalidArgument);
  });

  test("files not written by the provider (a temporary file, a stray file) are never listed", async () => {
    await provider.upload(bucket, "stray/ok", Buffer.from("ok"), {});
    writeFileSync(path.join(bucketDir, "stray", ".tmp-deadbeef"), "half");
    writeFileSync(path.join(bucketDir, "stray", "notes.txt"), "mine");
    mkdirSync(path.join(bucketDir, "stray", "Upper"));
    expect(await names(provider.list(bucket, { prefix: "stray/" }))).toEqual(["stray/ok"]);
  });

  test("a damaged object file is reported, never served cut short", async () => {
    await provider.upload(bucket, "damaged", Buffer.from("0123456789"), {});
    const file = path.join(bucketDir, "damaged@");
    writeFileSync(file, readFileSync(file).subarray(0, -3));
    await expect(provider.download(bucket, "damaged")).rejects.toThrow(ObjectsError);
    await expect(provider.download(bucket, "damaged")).rejects.toThrow(/damaged: 7 bytes of content, header says 10/);
  });

  test("public URLs are this server's /objects route, or OBJECTS_PUBLIC_BASE_URL in front of it", () => {
    expect(provider.publicUrl(bucket, "a b/ü.png")).toBe("https://sho.rt/objects/pics/a%20b/%C3%BC.png");
    const cdn = new LocalProvider({ ...provider.options, publicObjectsBaseUrl: "https://cdn.sho.rt/o" });
    expect(cdn.publicUrl(bucket, "a b/ü.png")).toBe("https://cdn.sho.rt/o/pics/a%20b/%C3%BC.png");
  });

  test("a bucket never written to lists nothing", async () => {
    expect(await names(provider.list({ name: "empty", public: false, versioned: false }, {}))).toEqual([]);
  });
});

describe("atomic replacement", () => {
  test("a reader that opened an object keeps reading that version while it is replaced", async () => {
    await provider.upload(bucket, "live", Buffer.from("old bytes"), { contentType: "text/old" });
    const opened = await provider.openObject(bucket, "live");
    await provider.upload(bucket, "live", Buffer.from("new bytes, longer"), { contentType: "text/new" });
    expect(opened.header.contentType).toBe("text/old");
    expect(await text(opened.content())).toBe("old bytes");
    expect((await provider.attrs(bucket, "live")).contentType).toBe("text/new");
  });

  test("concurrent overwrites leave one whole upload: bytes and metadata from the same writer", async () => {
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => provider.upload(bucket, "contended", Buffer.alloc(1000 * (i + 1), i), { contentType: `x/${i}` })),
    );
    const attrs = await provider.attrs(bucket, "contended");
    const i = Number(attrs.contentType!.slice(2));
    expect(await provider.download(bucket, "contended")).toEqual(Buffer.alloc(1000 * (i + 1), i));
    expect(readdirSync(bucketDir).filter((f) => f.startsWith(".tmp-"))).toEqual([]);
  });
});

describe("streamed uploads", () => {
  async function* chunks(...parts: string[]): AsyncGenerator<Buffer> {
    for (const part of parts) yield Buffer.from(part);
  }

  test("chunks are stored as one object with the ETag a whole upload of the same bytes gets", async () => {
    const streamed = await provider.uploadStream(bucket, "streamed", chunks("one ", "two ", "three"), { size: 13, contentType: "text/plain" });
    const whole = await provider.upload(bucket, "whole", Buffer.from("one two three"), {});
    expect(streamed).toMatchObject({ size: 13, etag: whole.etag, contentType: "text/plain" });
    expect((await provider.download(bucket, "streamed")).toString()).toBe("one two three");
  });

  test.each([
    ["ends before the size announced", chunks("short"), /ended after 5 of the 10 bytes/],
    ["runs past the size announced", chunks("0123456789", "!"), /longer than the 10 bytes/],
    [
      "fails half-way",
      (async function* () {
        yield Buffer.from("half");
        throw new Error("connection reset");
      })(),
      /connection reset/,
    ],
  ])("content that %s stores nothing and leaves no temporary file", async (_, content, error) => {
    await provider.upload(bucket, "kept", Buffer.from("previous"), {});
    await expect(provider.uploadStream(bucket, "kept", content, { size: 10 })).rejects.toThrow(error);
    expect((await provider.download(bucket, "kept")).toString()).toBe("previous");
    expect(readdirSync(bucketDir).filter((f) => f.startsWith(".tmp-"))).toEqual([]);
  });
});
