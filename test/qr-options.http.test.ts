// GET /links/:code/qr over real HTTP: PNG and SVG of the link's short link (its domain's when
// it has one), the size, colours and margin asked for, a bad parameter 400 naming it, an
// unknown, deleted or malformed code 404; and one render measured.
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { db } from "../url/db";
import { qrImage } from "../links/qr-images/render";
import { qrDefaults } from "../links/qr-images/options";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function shorten(url: string): Promise<{ code: string; shortUrl: string }> {
  const res = await fetch(`${server.url}/shorten`, { method: "POST", body: JSON.stringify({ url }) });
  expect(res.status).toBe(200);
  return (await res.json()) as { code: string; shortUrl: string };
}

const qr = (code: string, query = "") => fetch(`${server.url}/links/${code}/qr${query}`);

/** Width and height from a PNG's IHDR chunk, the first after the 8-byte signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  expect(png.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function decode(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}

describe("GET /links/:code/qr", () => {
  test("a PNG of the short link by default, 256 pixels, kept long", async () => {
    const { code, shortUrl } = await shorten("https://example.com/qr-default");
    const res = await qr(code);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toBe("public, max-age=604800, immutable");
    const png = Buffer.from(await res.arrayBuffer());
    expect(pngSize(png)).toEqual({ width: 256, height: 256 });
    expect(decode(png)).toBe(shortUrl);
  });

  test("the size asked for, and it still decodes at the smallest and largest", async () => {
    const { code, shortUrl } = await shorten("https://example.com/qr-sizes");
    for (const size of [64, 300, 2048]) {
      const png = Buffer.from(await (await qr(code, `?format=png&size=${size}`)).arrayBuffer());
      expect(pngSize(png)).toEqual({ width: size, height: size });
      if (size !== 64) expect(decode(png)).toBe(shortUrl);
    }
  });

  test("an SVG with the colours, size and margin asked for", async () => {
    const { code } = await shorten("https://example.com/qr-svg");
    const res = await qr(code, "?format=svg&size=512&color=%231F5FBF&background=%23fbfbfa&margin=0");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    const svg = await res.text();
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain('width="512" height="512"');
    expect(svg).toContain('stroke="#1f5fbf"');
    expect(svg).toContain('fill="#fbfbfa"');
    const withMargin = await (await qr(code, "?format=svg&margin=4")).text();
    const box = (s: string) => Number(/viewBox="0 0 (\d+) \d+"/.exec(s)![1]);
    expect(box(withMargin) - box(svg)).toBe(8); // 4 modules each side
  });

  test("the colours appear in the PNG too: its corner is the background, its finder pattern the colour", async () => {
    const { code } = await shorten("https://example.com/qr-png-colours");
    const png = PNG.sync.read(Buffer.from(await (await qr(code, "?color=%23aa0000&background=%23ffee00&margin=2&size=200")).arrayBuffer()));
    const pixel = (x: number, y: number) => [...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3)];
    expect(pixel(1, 1)).toEqual([0xff, 0xee, 0x00]);
    // The finder pattern's outer ring starts after the 2-module margin: the middle of its first module.
    const module = png.width / (25 + 4);
    expect(pixel(Math.floor(module * 2.5), Math.floor(module * 2.5))).toEqual([0xaa, 0x00, 0x00]);
  });

  test("a link on a custom domain: the image is of its domain's short link", async () => {
    const { code } = await shorten("https://example.com/qr-domain");
    await db.exec`INSERT INTO domains (host, workspace_id, token, verified_at) VALUES ('go.qr.example', 'ws-qr', 't', now())`;
    await db.exec`UPDATE urls SET domain = 'go.qr.example' WHERE code = ${code}`;
    const png = Buffer.from(await (await qr(code, "?size=400")).arrayBuffer());
    expect(decode(png)).toBe(`https://go.qr.example/${code}`);
  });

  test.each([
    ["?format=gif", /^format must be png or svg/],
    ["?size=63", /^size must be a whole number from 64 to 2048/],
    ["?size=2049", /^size must be/],
    ["?size=1e3", /^size must be/],
    ["?size=12.5", /^size must be/],
    ["?margin=17", /^margin must be a whole number from 0 to 16/],
    ["?margin=-1", /^margin must be/],
    ["?color=red", /^color must be a colour as #rrggbb/],
    ["?color=%23abc", /^color must be/],
    ["?background=%2300000000", /^background must be a colour as #rrggbb/],
  ])("%s is 400 invalid_argument naming the parameter", async (query, message) => {
    const { code } = await shorten("https://example.com/qr-bad");
    const res = await qr(code, query);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(message) });
  });

  test("an unknown, malformed or deleted code is 404", async () => {
    for (const code of ["nosuch", "a.b", "x".repeat(70)]) {
      const res = await qr(code);
      expect(res.status, code).toBe(404);
      expect(await res.json()).toMatchObject({ code: "not_found" });
    }
    const { code } = await shorten("https://example.com/qr-deleted");
    await db.exec`UPDATE urls SET deleted_at = now() WHERE code = ${code}`;
    expect((await qr(code)).status).toBe(404);
  });

  test("one render takes milliseconds; a repeat comes from the recent renders", async () => {
    const text = "https://sho.rt/measure1";
    for (const [format, size] of [["png", 256], ["png", 2048], ["svg", 2048]] as const) {
      const options = { ...qrDefaults, format, size };
      const started = performance.now();
      const first = await qrImage(text, options);
      const took = performance.now() - started;
      console.log(`one ${format} render at ${size} px: ${took.toFixed(1)} ms, ${first.body.length} bytes`);
      expect(took).toBeLessThan(100);
      expect(await qrImage(text, options)).toBe(first);
    }
  });
});
