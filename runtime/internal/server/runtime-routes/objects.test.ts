// /objects/<bucket>/<name> over real HTTP: the app's server with buckets declared in this
// file, and a small server with an injected clock for expiry.
import Fastify, { type FastifyInstance } from "fastify";
import { randomBytes } from "node:crypto";
import http from "node:http";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Bucket } from "../../../encore.dev/storage/objects/mod.ts";
import { startTestServer, type TestServer } from "../../../test/server.ts";
import { config } from "../../config/mod.ts";
import { LocalProvider } from "../../objects/local-provider.ts";
import type { BucketSpec } from "../../objects/provider.ts";
import { UrlSigner } from "../../objects/signing.ts";
import { errorHandler } from "../pipeline/errors.ts";
import { objectRoutes } from "./objects.ts";

// Declared at run time, not in the app's metadata: the server finds them all the same.
const pub = new Bucket("test-public", { public: true });
const priv = new Bucket("test-private");

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await pub.upload("logo.svg", Buffer.from("<svg/>"), { contentType: "image/svg+xml" });
  await pub.upload("nested/dir/file.txt", Buffer.from("deep"), { contentType: "text/plain" });
  await priv.upload("report.txt", Buffer.from("top secret"), { contentType: "text/plain" });
});
afterAll(() => server.close());

interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** A request whose path goes out exactly as written: fetch() would resolve "..", and encode. */
function raw(base: string, rawPath: string, method = "GET", headers: http.OutgoingHttpHeaders = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: rawPath, method, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** A URL the runtime minted for PUBLIC_BASE_URL, pointed at the test server instead. */
function local(url: string): string {
  const u = new URL(url);
  return server.url + u.pathname + u.search;
}

describe("public objects", () => {
  test("are served with their Content-Type, ETag, Cache-Control and Content-Length, and nosniff", async () => {
    const res = await fetch(local(pub.publicUrl("logo.svg")));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("<svg/>");
    const attrs = await pub.attrs("logo.svg");
    expect(Object.fromEntries(["content-type", "etag", "cache-control", "content-length", "x-content-type-options", "content-security-policy"].map((h) => [h, res.headers.get(h)]))).toEqual({
      "content-type": "image/svg+xml",
      etag: `"${attrs.etag}"`,
      "cache-control": "public, no-cache",
      "content-length": "6",
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox",
    });
  });

  test("a request with a matching If-None-Match gets 304 and no body; a stale one gets the object", async () => {
    const first = await fetch(`${server.url}/objects/test-public/logo.svg`);
    const etag = first.headers.get("etag")!;
    const again = await raw(server.url, "/objects/test-public/logo.svg", "GET", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(etag);
    expect((await raw(server.url, "/objects/test-public/logo.svg", "GET", { "if-none-match": `W/${etag}, "x"` })).status).toBe(304);
    const stale = await raw(server.url, "/objects/test-public/logo.svg", "GET", { "if-none-match": '"older"' });
    expect([stale.status, stale.body]).toEqual([200, "<svg/>"]);
  });

  test("after an overwrite the old ETag no longer matches", async () => {
    await pub.upload("changing.txt", Buffer.from("v1"), { contentType: "text/plain" });
    const etag = (await fetch(`${server.url}/objects/test-public/changing.txt`)).headers.get("etag")!;
    await pub.upload("changing.txt", Buffer.from("v2"), { contentType: "text/plain" });
    const res = await raw(server.url, "/objects/test-public/changing.txt", "GET", { "if-none-match": etag });
    expect([res.status, res.body]).toEqual([200, "v2"]);
  });

  test("HEAD gives the headers without the body", async () => {
    const res = await raw(server.url, "/objects/test-public/nested/dir/file.txt", "HEAD");
    expect(res.status).toBe(200);
    expect(res.headers["content-length"]).toBe("4");
    expect(res.headers["content-type"]).toBe("text/plain");
    expect(res.body).toBe("");
  });

  test("an unknown bucket or object is 404 not_found in Encore's format", async () => {
    for (const p of ["/objects/no-such-bucket/x", "/objects/test-public/missing.png"]) {
      const res = await raw(server.url, p);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body)).toMatchObject({ code: "not_found", details: null });
    }
  });
});

describe("names that try to leave the bucket are refused with 400 invalid_argument", () => {
  test.each([
    "/objects/test-public/../x",
    "/objects/test-public/nested/../../x",
    "/objects/test-public/..",
    "/objects/test-public/%2e%2e%2fx",
    "/objects/test-public/%2E%2E/%2E%2E/.signing-key",
    "/objects/test-public/..%2fx",
    "/objects/test-public/%2fetc%2fpasswd",
    "/objects/test-public//etc/passwd",
    "/objects/test-public/a%5Cb",
    "/objects/test-public/..%5C..%5Cx",
    "/objects/test-public/a%00b",
    "/objects/test-public/a//b",
  ])("%s", async (p) => {
    const res = await raw(server.url, p);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: "invalid_argument" });
  });

  test("a double-encoded name is decoded once and stays a literal, harmless name", async () => {
    await pub.upload("%2e%2e%2fx", Buffer.from("literal"));
    const res = await raw(server.url, "/objects/test-public/%252e%252e%252fx");
    expect([res.status, res.body]).toEqual([200, "literal"]);
  });
});

describe("private objects and signed URLs", () => {
  test("a private object without a signature is 403 permission_denied, as is a missing one", async () => {
    for (const p of ["/objects/test-private/report.txt", "/objects/test-private/nothing-here"]) {
      const res = await raw(server.url, p);
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ code: "permission_denied" });
    }
  });

  test("a signed download URL serves the private object, privately cached", async () => {
    const res = await fetch(local((await priv.signedDownloadUrl("report.txt", { ttl: 60 })).url));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("top secret");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  test("a signed upload URL stores the body with the request's Content-Type", async () => {
    const { url } = await priv.signedUploadUrl("uploads/photo.jpg", { ttl: 60 });
    const res = await fetch(local(url), { method: "PUT", body: "JPEG…", headers: { "content-type": "image/jpeg" } });
    expect(res.status).toBe(200);
    const attrs = await priv.attrs("uploads/photo.jpg");
    expect(res.headers.get("etag")).toBe(`"${attrs.etag}"`);
    expect(attrs.contentType).toBe("image/jpeg");
    expect((await priv.download("uploads/photo.jpg")).toString()).toBe("JPEG…");
  });

  test("a URL signed for one operation or object does not work for another", async () => {
    const download = local((await priv.signedDownloadUrl("report.txt")).url);
    expect((await fetch(download, { method: "PUT", body: "overwrite" })).status).toBe(403);
    const upload = local((await pub.signedUploadUrl("logo.svg")).url);
    expect((await fetch(upload.replace("test-public", "test-private"), { method: "PUT", body: "x" })).status).toBe(403);
    expect((await fetch(`${server.url}/objects/test-public/logo.svg`, { method: "PUT", body: "no signature" })).status).toBe(403);
    expect((await pub.download("logo.svg")).toString()).toBe("<svg/>");
  });

  test.each([
    ["a character of the name", (u: URL) => (u.pathname = u.pathname.replace("report", "rep0rt"))],
    ["the expiry", (u: URL) => u.searchParams.set("expires", String(Number(u.searchParams.get("expires")) + 3600))],
    ["the signature", (u: URL) => u.searchParams.set("signature", flip(u.searchParams.get("signature")!))],
    ["no expiry", (u: URL) => u.searchParams.delete("expires")],
  ])("a URL with %s changed is 403 permission_denied", async (_, tamper) => {
    const url = new URL(local((await priv.signedDownloadUrl("report.txt")).url));
    tamper(url);
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: "permission_denied" });
  });
});

/** What a client sending a large body heard before sending it: the server's whole answer, or a timeout. */
interface EarlyAnswer extends RawResponse {
  /** Bytes of the body the client had written when the answer came. */
  readonly bodySent: number;
}

/**
 * Sends a PUT's headers and the first 64 KiB of a body announced as `headers` say (up to
 * 30 MiB), then waits: a server that checks before it reads answers now; one that reads
 * the body first waits for bytes that never come, and the answer times out.
 */
function putHeadersOnly(base: string, rawPath: string, headers: http.OutgoingHttpHeaders, timeoutMs = 5_000): Promise<EarlyAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    let bodySent = 0;
    const req = http.request({ host: hostname, port, path: rawPath, method: "PUT", headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, body, bodySent });
      });
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms while the body was still to come`));
    }, timeoutMs);
    req.on("error", () => {}); // the server may close the connection while the body is unsent: the answer is what counts
    req.flushHeaders();
    const first = Buffer.alloc(64 * 1024);
    req.write(first, () => (bodySent += first.length));
  });
}

describe("signed uploads are checked before their body is read, then streamed", () => {
  const announced = { "content-type": "application/octet-stream", "content-length": String(30 * 1024 * 1024) };
  const bucketDir = () => path.join(config().dataDir, "objects", "test-private");

  test.each([
    ["without a signature", async (): Promise<string> => "/objects/test-private/big.bin", 403, "permission_denied"],
    ["with a forged signature", async (): Promise<string> => "/objects/test-private/big.bin?expires=4102444800&signature=" + "A".repeat(43), 403, "permission_denied"],
    ["with a URL signed for another object", async (): Promise<string> => requestPath(await priv.signedUploadUrl("other.bin")).replace("other.bin", "big.bin"), 403, "permission_denied"],
    ["with a download URL", async (): Promise<string> => requestPath(await priv.signedDownloadUrl("big.bin")), 403, "permission_denied"],
    ["to an unknown bucket", async (): Promise<string> => "/objects/no-such-bucket/big.bin", 404, "not_found"],
    ["to a name leaving the bucket", async (): Promise<string> => "/objects/test-private/..%2f..%2fbig.bin", 400, "invalid_argument"],
  ] as const)("a 30 MiB PUT %s is answered before its body is sent, and its connection closed", async (_, url, status, code) => {
    const res = await putHeadersOnly(server.url, await url(), announced);
    expect([res.status, JSON.parse(res.body).code]).toEqual([status, code]);
    expect(res.headers.connection).toBe("close");
    expect(res.bodySent).toBeLessThan(30 * 1024 * 1024);
    expect(await priv.exists("big.bin")).toBe(false);
  });

  test("a signed PUT declaring more than the limit is 413 before its body is sent", async () => {
    const url = requestPath(await priv.signedUploadUrl("huge.bin"));
    const res = await putHeadersOnly(server.url, url, { ...announced, "content-length": String(32 * 1024 * 1024 + 1) });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ code: "resource_exhausted", details: null });
    expect(res.headers.connection).toBe("close");
  });

  test("a PUT in chunks of unknown total is 411 when signed, 403 when not, before any chunk is read", async () => {
    const chunked = { "content-type": "application/octet-stream", "transfer-encoding": "chunked" };
    const signed = await putHeadersOnly(server.url, requestPath(await priv.signedUploadUrl("chunked.bin")), chunked);
    expect(signed.status).toBe(411);
    expect(JSON.parse(signed.body)).toEqual({ code: "invalid_argument", message: "an upload must declare its size in Content-Length", details: null });
    const unsigned = await putHeadersOnly(server.url, "/objects/test-private/chunked.bin", chunked);
    expect(unsigned.status).toBe(403);
    expect(await priv.exists("chunked.bin")).toBe(false);
  });

  test("a signed upload of 5 MiB stores exactly its bytes, with the ETag an upload from the app gives them", async () => {
    const bytes = randomBytes(5 * 1024 * 1024);
    const res = await fetch(local((await priv.signedUploadUrl("large/5mib.bin")).url), {
      method: "PUT",
      body: bytes,
      headers: { "content-type": "application/x-test" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: "large/5mib.bin", size: bytes.length, contentType: "application/x-test" });
    expect((await priv.download("large/5mib.bin")).equals(bytes)).toBe(true);
    const fromApp = await priv.upload("large/5mib-copy.bin", bytes);
    expect((await priv.attrs("large/5mib.bin")).etag).toBe(fromApp.etag);
    expect(readdirSync(path.join(bucketDir(), "large")).filter((f) => f.startsWith(".tmp-"))).toEqual([]);
  });

  /** Starts a signed upload of 8 MiB, sends part of it, waits until it is being written, and leaves. */
  async function leaveMidUpload(name: string): Promise<void> {
    const { hostname, port } = new URL(server.url);
    const req = http.request({
      host: hostname,
      port,
      path: requestPath(await priv.signedUploadUrl(name)),
      method: "PUT",
      headers: { "content-length": String(8 * 1024 * 1024) },
      agent: false,
    });
    req.on("error", () => {});
    req.write(randomBytes(1024 * 1024));
    // The body is written to disk as it arrives: its temporary file is there before the body is complete.
    const temporaries = () => readdirSync(bucketDir()).filter((f) => f.startsWith(".tmp-"));
    await expect.poll(temporaries, { timeout: 5_000 }).toHaveLength(1);
    req.destroy();
    await expect.poll(temporaries, { timeout: 5_000 }).toEqual([]);
  }

  test("a client that leaves mid-upload leaves no object and no temporary file", async () => {
    await leaveMidUpload("never-finished.bin");
    expect(await priv.exists("never-finished.bin")).toBe(false);
  });

  test("a client that leaves mid-upload over an existing object leaves that object as it was", async () => {
    await priv.upload("replaced.bin", Buffer.from("previous"));
    await leaveMidUpload("replaced.bin");
    expect((await priv.download("replaced.bin")).toString()).toBe("previous");
  });

  test("a PUT without a body and without Content-Length stores an empty object", async () => {
    const res = await raw(server.url, requestPath(await priv.signedUploadUrl("empty.txt")), "PUT", { "content-type": "text/plain" });
    expect(res.status).toBe(200);
    expect((await priv.attrs("empty.txt")).size).toBe(0);
  });
});

/** The path and query of a URL the runtime minted. */
function requestPath(url: string | { url: string }): string {
  const u = new URL(typeof url === "string" ? url : url.url);
  return u.pathname + u.search;
}

describe("with an injected clock", () => {
  const root = mkdtempSync(path.join(tmpdir(), "objects-routes-"));
  let now = Date.UTC(2030, 0, 1);
  const store = new LocalProvider({
    root,
    publicBaseUrl: "http://objects.test",
    publicObjectsBaseUrl: null,
    signer: new UrlSigner(randomBytes(32), () => now),
  });
  const vault: BucketSpec = { name: "vault", public: false, versioned: false };
  let server: FastifyInstance;

  beforeAll(async () => {
    server = Fastify();
    server.setErrorHandler(errorHandler(false));
    await server.register(objectRoutes({ store: async () => store, bucket: (name) => (name === "vault" ? vault : undefined), maxUploadBytes: 16 }));
    await store.upload(vault, "doc", Buffer.from("kept"), {});
  });
  afterAll(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  const pathOf = (url: string) => url.slice("http://objects.test".length);

  test("a signed URL works until its ttl has passed, then is 403 permission_denied", async () => {
    const url = pathOf(await store.signedUrl(vault, "doc", "GET", 60));
    expect((await server.inject({ url })).body).toBe("kept");
    now += 59_000;
    expect((await server.inject({ url })).statusCode).toBe(200);
    now += 1_000;
    const expired = await server.inject({ url });
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toEqual({ code: "permission_denied", message: "the signed URL has expired", details: null });
  });

  test("a signed upload larger than the limit is 413", async () => {
    const url = pathOf(await store.signedUrl(vault, "big", "PUT", 60));
    expect((await server.inject({ method: "PUT", url, payload: Buffer.alloc(16) })).statusCode).toBe(200);
    const res = await server.inject({ method: "PUT", url, payload: Buffer.alloc(17) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: "resource_exhausted" });
  });
});

function flip(text: string): string {
  return (text[0] === "A" ? "B" : "A") + text.slice(1);
}
