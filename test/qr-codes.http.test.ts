// The QR-code extension, switched on for this file: POST /shorten stores <code>.png
// in the public qr-codes bucket before the record, and answers with its URL.
import jsQR from "jsqr";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { config } from "../runtime/internal/config/mod.ts";
import { apiCaller, signUpAndLogIn } from "./support/api-client.ts";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { db } from "../url/db";
import { qrObjectName } from "../link-rules/qr-images";
import { qrCodes } from "../links/qr-codes";
import { plainLink } from "../links/outbox/url-store";
import { storeUnderAlias } from "../links/shortening/alias-code";
import { storeUnderFreshCode } from "../links/shortening/fresh-code";
import { removeStaleUrls } from "../url/stale-urls/remove";
import { LinkClient } from "./support/link-client";

vi.hoisted(() => {
  process.env.QR_CODES = "on"; // read once, when url/config/url-config.ts loads
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface Shortened {
  code: string;
  shortUrl: string;
  qrCodeUrl?: string;
}

async function shortenOverHttp(url: string): Promise<{ status: number; body: Shortened }> {
  const res = await fetch(`${server.url}/shorten`, { method: "POST", body: JSON.stringify({ url }) });
  return { status: res.status, body: (await res.json()) as Shortened };
}

/** The public URL names PUBLIC_BASE_URL (https://sho.rt here); fetch the same path from the test server. */
function onTestServer(publicUrl: string): string {
  const { pathname } = new URL(publicUrl);
  return `${server.url}${pathname}`;
}

function decodeQr(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

async function rowExists(code: string): Promise<boolean> {
  return (await db.queryRow`SELECT 1 AS one FROM urls WHERE code = ${code}`) !== null;
}

describe("the QR-code extension", () => {
  test("the stored PNG is served publicly as image/png and decodes to the short link", async () => {
    const { status, body } = await shortenOverHttp("https://example.com/qr?x=1");
    expect(status).toBe(200);
    expect(body.qrCodeUrl).toBe(`https://sho.rt/objects/qr-codes/${body.code}.png`);

    const first = await fetch(onTestServer(body.qrCodeUrl!));
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/png");
    expect(decodeQr(Buffer.from(await first.arrayBuffer()))).toBe(body.shortUrl);

    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    const again = await fetch(onTestServer(body.qrCodeUrl!), { headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  test("a code whose image already exists is taken: another code is drawn", async () => {
    await qrCodes.upload(qrObjectName("qqqqq1"), Buffer.from("not ours"), { contentType: "image/png" });
    const drawn = ["qqqqq1", "qqqqq2"];
    const code = await storeUnderFreshCode("https://second-draw.example", () => drawn.shift()!);
    expect(code).toBe("qqqqq2");
    expect(await rowExists("qqqqq1")).toBe(false);
    expect((await qrCodes.download(qrObjectName("qqqqq1"))).toString()).toBe("not ours"); // untouched
  });

  test("if the image cannot be stored the request fails clearly and no record is stored", async () => {
    // A real failure of the real store: the bucket's folder replaced by a plain file.
    const bucketDir = path.join(config().dataDir, "objects", "qr-codes");
    mkdirSync(bucketDir, { recursive: true });
    renameSync(bucketDir, `${bucketDir}.aside`);
    writeFileSync(bucketDir, "in the way");
    try {
      const before = (await db.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM urls`)!.n;
      const { status, body } = await shortenOverHttp("https://never-stored.example");
      expect(status).toBe(503);
      expect(body).toMatchObject({ code: "unavailable", message: expect.stringMatching(/QR code could not be stored/) });
      expect((await db.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM urls`)!.n).toBe(before);
    } finally {
      rmSync(bucketDir);
      renameSync(`${bucketDir}.aside`, bucketDir);
    }
  });

  test("an alias gets its image; an alias found taken leaves none behind, nor takes the holder's", async () => {
    const token = await new LinkClient(() => server.url).signUp("qr-alias@example.com");
    const res = await fetch(`${server.url}/shorten`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ url: "https://example.com/qr-alias", alias: "Qr-Alias" }),
    });
    const body = (await res.json()) as Shortened;
    expect(body.qrCodeUrl).toBe("https://sho.rt/objects/qr-codes/Qr-Alias.png");
    expect(decodeQr(await qrCodes.download(qrObjectName("Qr-Alias")))).toBe("https://sho.rt/Qr-Alias");

    await expect(storeUnderAlias("qr-alias", "https://example.com/other-case", plainLink)).rejects.toMatchObject({ code: "already_exists" });
    expect(await qrCodes.exists(qrObjectName("qr-alias"))).toBe(false);
    await expect(storeUnderAlias("Qr-Alias", "https://example.com/same", plainLink)).rejects.toMatchObject({ code: "already_exists" });
    expect(await qrCodes.exists(qrObjectName("Qr-Alias"))).toBe(true);
  });

  test("the cleanup job removes the images of the links it deletes", async () => {
    const { body } = await shortenOverHttp("https://stale-qr.example");
    const { body: kept } = await shortenOverHttp("https://fresh-qr.example");
    await db.exec`UPDATE urls SET created_at = now() - interval '91 days' WHERE code = ${body.code}`;
    expect(await qrCodes.exists(qrObjectName(body.code))).toBe(true);

    expect(await removeStaleUrls({ settleMs: 0 })).toBe(1);
    expect(await rowExists(body.code)).toBe(false);
    expect(await qrCodes.exists(qrObjectName(body.code))).toBe(false);
    expect(await qrCodes.exists(qrObjectName(kept.code))).toBe(true);
    expect((await fetch(onTestServer(body.qrCodeUrl!))).status).toBe(404);
  });
});

describe("deleting a link", () => {
  const call = apiCaller(() => server.url);

  test("DELETE /links/:code removes its image; its Link answers the image's URL until then, and none after", async () => {
    const { token } = await signUpAndLogIn(call, "qr-owner@example.com");
    const made = await call("POST", "/shorten", { token, body: { url: "https://deleted-qr.example" } });
    const { code, qrCodeUrl } = made.body as { code: string; qrCodeUrl: string };
    expect((await call("GET", `/links/${code}`, { token })).body).toMatchObject({ qrCodeUrl });
    expect(await qrCodes.exists(qrObjectName(code))).toBe(true);

    expect((await call("DELETE", `/links/${code}`, { token })).status).toBe(200);
    expect(await qrCodes.exists(qrObjectName(code))).toBe(false);
    expect((await fetch(onTestServer(qrCodeUrl))).status).toBe(404);
    expect((await call("GET", `/links/${code}`, { token })).body).not.toHaveProperty("qrCodeUrl");
  });

  test("an image already gone does not fail the delete", async () => {
    const { token } = await signUpAndLogIn(call, "qr-gone@example.com");
    const { code } = (await call("POST", "/shorten", { token, body: { url: "https://gone-qr.example" } })).body as { code: string };
    await qrCodes.remove(qrObjectName(code));
    expect((await call("DELETE", `/links/${code}`, { token })).status).toBe(200);
    expect((await db.queryRow`SELECT deleted_at FROM urls WHERE code = ${code}`)!.deleted_at).toBeInstanceOf(Date);
  });
});
