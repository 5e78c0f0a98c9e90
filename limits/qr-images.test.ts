import { describe, expect, test } from "vitest";
import { parseQrImageLimits, QrImageLimits } from "./qr-images";

describe("parseQrImageLimits", () => {
  test("120 per address a minute by default; off turns the limit off", () => {
    expect(parseQrImageLimits({})).toEqual({ perAddress: 120, windowSeconds: 60 });
    expect(parseQrImageLimits({ QR_IMAGE_LIMIT_PER_ADDRESS: "off", QR_IMAGE_LIMIT_WINDOW_SECONDS: "3600" })).toEqual({ perAddress: null, windowSeconds: 3600 });
  });

  test.each([
    ["QR_IMAGE_LIMIT_PER_ADDRESS", "-3"],
    ["QR_IMAGE_LIMIT_PER_ADDRESS", "plenty"],
    ["QR_IMAGE_LIMIT_WINDOW_SECONDS", "0"],
    ["QR_IMAGE_LIMIT_WINDOW_SECONDS", "86401"],
  ])("%s=%s is refused, naming the variable", (name, value) => {
    expect(() => parseQrImageLimits({ [name]: value })).toThrow(new RegExp(`invalid configuration: ${name}`));
  });
});

describe("QrImageLimits in memory", () => {
  test("an address gets its renders, then 429 with the wait; another address, or none, is unaffected", async () => {
    const limits = new QrImageLimits({ perAddress: 2, windowSeconds: 3600 }, null);
    await limits.count("203.0.113.1");
    await limits.count("203.0.113.1");
    const refused = await limits.count("203.0.113.1").catch((err: unknown) => err);
    expect(refused).toMatchObject({ code: "resource_exhausted", message: expect.stringMatching(/^too many QR images drawn for this address; try again in \d+ seconds$/) });
    expect((refused as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds).toBeGreaterThan(3000);
    await expect(limits.count("203.0.113.2")).resolves.toBeUndefined();
    await expect(limits.count(undefined)).resolves.toBeUndefined();
  });
});
