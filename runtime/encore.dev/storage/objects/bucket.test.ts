// The Bucket API as the app uses it, on the default local provider (this file's own DATA_DIR).
import { describe, expect, test } from "vitest";
import { Bucket, InvalidArgument, ObjectNotFound, ObjectsError, PreconditionFailed, type ListEntry } from "./mod.ts";

const files = new Bucket("test-files", { public: true });
const secrets = new Bucket("test-secrets");
const history = new Bucket("test-history", { versioned: true });

async function entries(list: AsyncGenerator<ListEntry>): Promise<ListEntry[]> {
  const found: ListEntry[] = [];
  for await (const entry of list) found.push(entry);
  return found;
}

async function all(list: AsyncGenerator<ListEntry>): Promise<string[]> {
  return (await entries(list)).map((e) => e.name);
}

describe("Bucket on the local provider", () => {
  test("an uploaded object can be downloaded, and its attributes match what was stored", async () => {
    const data = Buffer.from("hello, objects");
    const stored = await files.upload("greetings/hello.txt", data, { contentType: "text/plain; charset=utf-8" });
    expect(stored).toEqual({ name: "greetings/hello.txt", size: data.length, etag: expect.stringMatching(/^[0-9a-f]{32}$/), contentType: "text/plain; charset=utf-8" });
    expect(await files.download("greetings/hello.txt")).toEqual(data);
    expect(await files.attrs("greetings/hello.txt")).toEqual(stored);
    expect(await files.exists("greetings/hello.txt")).toBe(true);
    expect(await files.exists("greetings/missing.txt")).toBe(false);
  });

  test("the etag is a hash of the content: equal bytes give equal etags, other bytes another", async () => {
    const a = await files.upload("etag/a", Buffer.from("same"));
    const b = await files.upload("etag/b", Buffer.from("same"));
    const c = await files.upload("etag/a", Buffer.from("other"));
    expect(a.etag).toBe(b.etag);
    expect(c.etag).not.toBe(a.etag);
    expect(a.contentType).toBeUndefined();
  });

  test("overwriting replaces the bytes and the metadata together", async () => {
    await files.upload("swap", Buffer.from("<svg/>"), { contentType: "image/svg+xml" });
    const replaced = await files.upload("swap", Buffer.from("plain"), { contentType: "text/plain" });
    expect(await files.attrs("swap")).toEqual(replaced);
    expect((await files.download("swap")).toString()).toBe("plain");
  });

  test("list gives names in order, filtered by prefix and cut at limit", async () => {
    for (const name of ["list/b", "list/a/2", "list/a/1", "list/a-z", "list/a", "list/c", "listing"]) {
      await files.upload(name, Buffer.from(name));
    }
    // Byte order of the whole name, as S3 lists: "a" < "a-z" ("-" is 0x2d) < "a/1" ("/" is 0x2f) < "b".
    expect(await all(files.list({ prefix: "list/" }))).toEqual(["list/a", "list/a-z", "list/a/1", "list/a/2", "list/b", "list/c"]);
    expect(await all(files.list({ prefix: "list/a/" }))).toEqual(["list/a/1", "list/a/2"]);
    expect(await all(files.list({ prefix: "list/a", limit: 3 }))).toEqual(["list/a", "list/a-z", "list/a/1"]);
    expect(await all(files.list({ prefix: "list" }))).toContain("listing");
    expect(await all(files.list({ prefix: "nothing/" }))).toEqual([]);
    expect(await entries(files.list({ prefix: "list/c" }))).toEqual([{ name: "list/c", size: 6, etag: (await files.attrs("list/c")).etag }]);
  });

  test("remove deletes the object; removing it again is not an error", async () => {
    await files.upload("gone/soon", Buffer.from("x"));
    await files.remove("gone/soon");
    expect(await files.exists("gone/soon")).toBe(false);
    await expect(files.remove("gone/soon")).resolves.toBeUndefined();
    expect(await all(files.list({ prefix: "gone/" }))).toEqual([]);
  });

  test("downloading or reading the attributes of a missing object throws ObjectNotFound", async () => {
    await expect(files.download("missing")).rejects.toBeInstanceOf(ObjectNotFound);
    await expect(files.attrs("missing")).rejects.toBeInstanceOf(ObjectNotFound);
  });

  test("notExists refuses to replace an object with PreconditionFailed and keeps the first", async () => {
    await files.upload("once", Buffer.from("first"), { preconditions: { notExists: true } });
    const second = files.upload("once", Buffer.from("second"), { preconditions: { notExists: true } });
    await expect(second).rejects.toBeInstanceOf(PreconditionFailed);
    await expect(second).rejects.toBeInstanceOf(ObjectsError);
    expect((await files.download("once")).toString()).toBe("first");
  });

  test("of concurrent notExists uploads to one name exactly one wins, and its bytes are stored", async () => {
    const attempts = Array.from({ length: 8 }, (_, i) =>
      files.upload("race", Buffer.from(`writer ${i}`), { preconditions: { notExists: true } }).then(
        () => i,
        (err: unknown) => err,
      ),
    );
    const results = await Promise.all(attempts);
    const winners = results.filter((r) => typeof r === "number");
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r instanceof PreconditionFailed)).toHaveLength(7);
    expect((await files.download("race")).toString()).toBe(`writer ${winners[0]}`);
    expect(await all(files.list({ prefix: "race" }))).toEqual(["race"]); // no temporary file left behind
  });

  test("publicUrl points at this server's /objects route, and throws for a private bucket", () => {
    expect(files.publicUrl("a b/c+d.png")).toBe("https://sho.rt/objects/test-files/a%20b/c%2Bd.png");
    expect(() => secrets.publicUrl("x")).toThrow(InvalidArgument);
    expect(() => secrets.publicUrl("x")).toThrow(/bucket "test-secrets" is not public/);
  });

  test("signed URLs carry an expiry and a signature; ttl defaults to an hour and is at most seven days", async () => {
    const before = Math.floor(Date.now() / 1000);
    const { url } = await secrets.signedDownloadUrl("report.pdf");
    const parsed = new URL(url);
    expect(parsed.origin + parsed.pathname).toBe("https://sho.rt/objects/test-secrets/report.pdf");
    expect(Number(parsed.searchParams.get("expires")) - before).toBeGreaterThanOrEqual(3600);
    expect(Number(parsed.searchParams.get("expires")) - before).toBeLessThanOrEqual(3601);
    expect(parsed.searchParams.get("signature")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect(secrets.signedUploadUrl("report.pdf", { ttl: 7 * 24 * 3600 })).resolves.toHaveProperty("url");
    for (const ttl of [0, -1, 1.5, 7 * 24 * 3600 + 1]) {
      await expect(secrets.signedUploadUrl("report.pdf", { ttl })).rejects.toBeInstanceOf(InvalidArgument);
      await expect(secrets.signedDownloadUrl("report.pdf", { ttl })).rejects.toBeInstanceOf(InvalidArgument);
    }
  });

  test("Bucket.named refers to a declared bucket; an undeclared one fails on use", async () => {
    await files.upload("named", Buffer.from("via named"));
    expect((await Bucket.named("test-files").download("named")).toString()).toBe("via named");
    await expect(Bucket.named("test-undeclared").exists("x")).rejects.toThrow(/bucket "test-undeclared" is not declared/);
  });

  test("a bucket name is declared once, and must be a valid name", () => {
    expect(() => new Bucket("test-files")).toThrow(/bucket "test-files" is declared twice/);
    expect(() => new Bucket("Test_Files")).toThrow(ObjectsError);
  });

  test("ref() gives the same bucket behind a narrower type", async () => {
    type Up = import("./mod.ts").Uploader;
    const uploader = files.ref<Up>();
    await uploader.upload("via-ref", Buffer.from("r"));
    expect(await files.exists("via-ref")).toBe(true);
  });

  test("a bad content type or limit is InvalidArgument", async () => {
    await expect(files.upload("x", Buffer.from(""), { contentType: "text/plain\r\nSet-Cookie: a=b" })).rejects.toBeInstanceOf(InvalidArgument);
    await expect(all(files.list({ limit: 0 }))).rejects.toBeInstanceOf(InvalidArgument);
  });
});

describe("a versioned bucket keeps only the latest version (local provider)", () => {
  test("each upload gets a new version; only the latest can be read", async () => {
    const v1 = await history.upload("doc", Buffer.from("one"));
    const v2 = await history.upload("doc", Buffer.from("two"));
    expect(v1.version).toMatch(/\S/);
    expect(v2.version).not.toBe(v1.version);
    expect((await history.attrs("doc", { version: v2.version })).version).toBe(v2.version);
    expect((await history.download("doc", { version: v2.version })).toString()).toBe("two");
    await expect(history.download("doc", { version: v1.version })).rejects.toBeInstanceOf(ObjectNotFound);
    expect(await history.exists("doc", { version: v1.version })).toBe(false);
    await history.remove("doc", { version: v1.version }); // not the latest: nothing removed
    expect(await history.exists("doc")).toBe(true);
  });

  test("an unversioned bucket reports no version and ignores the option, as Encore does", async () => {
    const stored = await files.upload("plain", Buffer.from("p"));
    expect(stored.version).toBeUndefined();
    expect((await files.download("plain", { version: "whatever" })).toString()).toBe("p");
  });
});

describe("object names are checked before any storage is touched", () => {
  // The empty name too: Encore's stores refuse it (its local emulator answers "missing
  // object name", GCS and S3 require a key of at least one byte).
  const refused = ["", "../x", "a/../../b", "..", ".", "a/./b", "/etc/passwd", "a\\b", "a//b", "a/", "nul\0byte", "line\nbreak", "x".repeat(1025)];

  test.each(refused.map((name) => [JSON.stringify(name).slice(0, 40), name]))("%s is refused with InvalidArgument", async (_, name) => {
    await expect(files.upload(name, Buffer.from("x"))).rejects.toBeInstanceOf(InvalidArgument);
    await expect(files.download(name)).rejects.toBeInstanceOf(InvalidArgument);
    await expect(files.exists(name)).rejects.toBeInstanceOf(InvalidArgument);
    await expect(files.remove(name)).rejects.toBeInstanceOf(InvalidArgument);
    await expect(files.signedDownloadUrl(name)).rejects.toBeInstanceOf(InvalidArgument);
    if (name !== "") expect(() => files.publicUrl(name)).toThrow(InvalidArgument);
  });

  test("the public URL of the empty name is the bucket's base, where its objects' URLs start, as Encore builds it", () => {
    expect(files.publicUrl("")).toBe("https://sho.rt/objects/test-files/");
    expect(files.publicUrl("a/b.txt")).toBe(`${files.publicUrl("")}a/b.txt`);
  });

  test("names that only look dangerous are ordinary names", async () => {
    for (const name of ["%2e%2e%2f", "..%2fx", "%252e", "...", "a..b/..c", "ünïcödé/日本.txt", "UPPER/lower", "x".repeat(200)]) {
      await files.upload(`odd/${name}`, Buffer.from(name));
      expect((await files.download(`odd/${name}`)).toString()).toBe(name);
    }
    // A case-insensitive filesystem must not merge these: capitals are escaped on disk.
    await files.upload("case/A", Buffer.from("upper"));
    await files.upload("case/a", Buffer.from("lower"));
    expect((await files.download("case/A")).toString()).toBe("upper");
    expect(await all(files.list({ prefix: "case/" }))).toEqual(["case/A", "case/a"]);
  });
});
