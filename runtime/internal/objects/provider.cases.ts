// What every object provider does, as test cases run against each one: local-provider.test.ts
// (its signed and public URLs served by the /objects routes) and s3-provider.test.ts (an S3
// server on loopback) call objectProviderCases with a harness of their own, and keep beside
// it only what is particular to their store.
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { ObjectNotFound } from "./errors.ts";
import type { BucketSpec, ObjectProvider } from "./provider.ts";

export interface ObjectProviderHarness {
  readonly provider: ObjectProvider;
  /** A public bucket, shared by the cases: each writes under names of its own. */
  readonly files: BucketSpec;
  /** A private bucket only the listing case writes to, so it can list all of it. */
  readonly listing: BucketSpec;
  /** How errors name `files`, e.g. `bucket "files"`. */
  readonly filesInErrors: string;
  /** Where `files`' public URLs start: the object's encoded name follows. */
  readonly publicPrefix: string;
  /** The content type an object uploaded without one reports. */
  readonly untypedContentType: string | undefined;
  /** Makes a signed URL claim a later expiry than it was signed for. */
  extendExpiry(url: URL): void;
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const md5Hex = /^[0-9a-f]{32}$/;

/** The cases, in a describe block named after the provider; `harness` is called in each test, once the store runs. */
export function objectProviderCases(provider: string, harness: () => ObjectProviderHarness): void {
  describe(`${provider}: what every object provider does`, () => {
    test("an uploaded object downloads with the same bytes, and attrs report its size, type and ETag", async () => {
      const { provider, files } = harness();
      const name = `${randomUUID()}/photos/été 2024/a+b&c=d.txt`;
      const uploaded = await provider.upload(files, name, Buffer.from("hello, objects"), { contentType: "text/plain" });
      expect(uploaded).toEqual({ name, size: 14, etag: expect.stringMatching(md5Hex), contentType: "text/plain" });

      expect((await provider.download(files, name)).toString()).toBe("hello, objects");
      expect(await provider.attrs(files, name)).toEqual(uploaded);
    });

    test("uploading again replaces the content and changes the ETag; an object uploaded without a type reports the store's default", async () => {
      const { provider, files, untypedContentType } = harness();
      const name = `${randomUUID()}.bin`;
      const first = await provider.upload(files, name, Buffer.from("one"), { contentType: "text/plain" });
      const second = await provider.upload(files, name, Buffer.from([0, 1, 2, 255]), {});

      expect(second.etag).not.toBe(first.etag);
      expect(await provider.download(files, name)).toEqual(Buffer.from([0, 1, 2, 255]));
      expect(await provider.attrs(files, name)).toEqual({ name, size: 4, etag: second.etag, contentType: untypedContentType });
    });

    test("exists is true for a stored object and false for a missing one", async () => {
      const { provider, files } = harness();
      const name = `${randomUUID()}.txt`;
      await provider.upload(files, name, Buffer.from("x"), {});
      expect(await provider.exists(files, name)).toBe(true);
      expect(await provider.exists(files, `${name}.missing`)).toBe(false);
    });

    test("a missing object is ObjectNotFound, naming the bucket and the object", async () => {
      const { provider, files, filesInErrors } = harness();
      const name = `${randomUUID()}/missing.txt`;
      const message = `"${name}" not found in ${filesInErrors}`;
      await expect(provider.download(files, name)).rejects.toThrow(ObjectNotFound);
      await expect(provider.download(files, name)).rejects.toThrow(message);
      await expect(provider.attrs(files, name)).rejects.toThrow(ObjectNotFound);
      await expect(provider.attrs(files, name)).rejects.toThrow(message);
    });

    test("remove deletes the object, and removing an absent one succeeds", async () => {
      const { provider, files } = harness();
      const name = `${randomUUID()}.txt`;
      await provider.upload(files, name, Buffer.from("bye"), {});
      await provider.remove(files, name);
      expect(await provider.exists(files, name)).toBe(false);
      await expect(provider.remove(files, name)).resolves.toBeUndefined();
    });

    test("list gives names in order with sizes and ETags, filtered by prefix, stopping at limit", async () => {
      const { provider, listing } = harness();
      const dir = `${randomUUID()}/`;
      const names = ["e", "a", "d/1", "b", "c"].map((n) => dir + n);
      for (const [i, name] of names.entries()) await provider.upload(listing, name, Buffer.alloc(i), {});
      await provider.upload(listing, `${randomUUID()}-outside`, Buffer.from("x"), {});

      const listed = await all(provider.list(listing, { prefix: dir }));
      expect(listed.map((o) => o.name)).toEqual([...names].sort());
      expect(listed.find((o) => o.name === `${dir}c`)).toEqual({ name: `${dir}c`, size: 4, etag: expect.stringMatching(md5Hex) });
      expect((await all(provider.list(listing, { prefix: dir, limit: 3 }))).map((o) => o.name)).toEqual([`${dir}a`, `${dir}b`, `${dir}c`]);
      expect(await all(provider.list(listing, { prefix: dir, limit: 0 }))).toEqual([]);
      expect((await all(provider.list(listing, {}))).length).toBe(6);
    });

    test("a signed GET URL downloads the object with plain fetch", async () => {
      const { provider, files } = harness();
      const name = `${randomUUID()}/a b.txt`;
      await provider.upload(files, name, Buffer.from("signed"), {});
      const res = await fetch(await provider.signedUrl(files, name, "GET", 60));
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("signed");
    });

    test("a signed PUT URL uploads with plain fetch", async () => {
      const { provider, files } = harness();
      const name = `${randomUUID()}/upload.bin`;
      const res = await fetch(await provider.signedUrl(files, name, "PUT", 60), { method: "PUT", body: "from a browser" });
      expect(res.status).toBe(200);
      expect((await provider.download(files, name)).toString()).toBe("from a browser");
    });

    test("a tampered signed URL is refused: another object, a later expiry, a PUT moved to another object", async () => {
      const { provider, files, extendExpiry } = harness();
      const name = `${randomUUID()}.txt`;
      const other = `${randomUUID()}.txt`;
      await provider.upload(files, name, Buffer.from("mine"), {});
      await provider.upload(files, other, Buffer.from("not yours"), {});
      const get = new URL(await provider.signedUrl(files, name, "GET", 60));
      expect((await fetch(get)).status).toBe(200);

      const otherObject = new URL(get);
      otherObject.pathname = otherObject.pathname.replace(name, other);
      expect((await fetch(otherObject)).status).toBe(403);

      const longer = new URL(get);
      extendExpiry(longer);
      expect(longer.search).not.toBe(get.search);
      expect((await fetch(longer)).status).toBe(403);

      const put = new URL(await provider.signedUrl(files, name, "PUT", 60));
      put.pathname = put.pathname.replace(name, other);
      expect((await fetch(put, { method: "PUT", body: "overwritten" })).status).toBe(403);
      expect((await provider.download(files, other)).toString()).toBe("not yours");
    });

    test("an expired signed URL is refused", async () => {
      const { provider, files } = harness();
      const name = `${randomUUID()}.txt`;
      await provider.upload(files, name, Buffer.from("soon gone"), {});
      const url = await provider.signedUrl(files, name, "GET", 1);
      await new Promise((resolve) => setTimeout(resolve, 2100));
      expect((await fetch(url)).status).toBe(403);
    });

    test("the public URL names the object, each segment encoded, and serves it", async () => {
      const { provider, files, publicPrefix } = harness();
      const name = `${randomUUID()}/été/a+b.txt`;
      await provider.upload(files, name, Buffer.from("public"), {});
      const url = provider.publicUrl(files, name);
      expect(url).toBe(publicPrefix + name.replace("été", "%C3%A9t%C3%A9").replace("+", "%2B"));
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("public");
    });

    test("the public URL of the empty name is the bucket's base, where every object's URL starts, as Encore joins them", () => {
      const { provider, files, publicPrefix } = harness();
      expect(provider.publicUrl(files, "")).toBe(publicPrefix);
    });
  });
}
