import { describe, expect, test } from "vitest";
import { url } from "~encore/clients";
import { clickCounter } from "./click-counting/instance";
import { db } from "./db";
import { reportableCodes, topCodes } from "./top-codes";

describe("top codes", () => {
  test("an empty table has no top codes and no clicks", async () => {
    expect(await topCodes({ limit: 10 })).toEqual({ totalClicks: 0, top: [] });
  });

  test("most clicks first, equal counts by code, never-clicked left out, with the total over every url", async () => {
    await db.exec`
      INSERT INTO urls (code, original_url, clicks) VALUES
        ('tc0005', 'https://five.example', 5), ('tc9b00', 'https://nine-b.example', 9),
        ('tc9a00', 'https://nine-a.example', 9), ('tc0001', 'https://one.example', 1),
        ('tc0000', 'https://zero.example', 0)`;
    clickCounter.record("tc0001"); // not yet written: counted all the same

    expect(await topCodes({ limit: 3 })).toEqual({
      totalClicks: 25,
      top: [
        { code: "tc9a00", originalUrl: "https://nine-a.example", clicks: 9 },
        { code: "tc9b00", originalUrl: "https://nine-b.example", clicks: 9 },
        { code: "tc0005", originalUrl: "https://five.example", clicks: 5 },
      ],
    });
    expect((await url.topCodes({ limit: 100 })).top.map((t) => t.code)).toEqual([
      "tc9a00",
      "tc9b00",
      "tc0005",
      "tc0001", // tc0000 was never clicked: not among the most clicked, whatever the limit
    ]);
  });

  test("only anonymous, live links without a password are named; the total still counts every link", async () => {
    await db.exec`
      INSERT INTO urls (code, original_url, clicks, created_by, password_hash, expires_at, max_clicks, deleted_at, disabled_at) VALUES
        ('tr-public', 'https://public.example', 1000001, NULL, NULL, NULL, NULL, NULL, NULL),
        ('tr-password', 'https://password.example', 1000006, NULL, 'scrypt$hash', NULL, NULL, NULL, NULL),
        ('tr-owned', 'https://owned.example', 1000005, 'user-1', NULL, NULL, NULL, NULL, NULL),
        ('tr-expired', 'https://expired.example', 1000004, NULL, NULL, now() - interval '1 day', NULL, NULL, NULL),
        ('tr-spent', 'https://spent.example', 1000003, NULL, NULL, NULL, 1000003, NULL, NULL),
        ('tr-disabled', 'https://disabled.example', 1000002, NULL, NULL, NULL, NULL, NULL, now())`;
    const { totalClicks, top } = await topCodes({ limit: 100 });
    expect(top.map((t) => t.code)).not.toEqual(expect.arrayContaining(["tr-password"]));
    expect(top.filter((t) => t.code.startsWith("tr-"))).toEqual([{ code: "tr-public", originalUrl: "https://public.example", clicks: 1000001 }]);
    expect(totalClicks).toBeGreaterThanOrEqual(1000001 + 1000002 + 1000003 + 1000004 + 1000005 + 1000006);
    const { codes } = await reportableCodes({ codes: ["tr-public", "tr-password", "tr-owned", "tr-expired", "tr-spent", "tr-disabled", "tr-none"] });
    expect(codes.sort()).toEqual(["tr-expired", "tr-public", "tr-spent"]); // once named, an expired or spent link stays named
  });

  test.each([0, 101, -1, 1.5])("a limit of %s is invalid_argument naming limit", async (limit) => {
    await expect(url.topCodes({ limit })).rejects.toMatchObject({
      code: "invalid_argument",
      message: expect.stringContaining("limit"),
    });
  });
});
