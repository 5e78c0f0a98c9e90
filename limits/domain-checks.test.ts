import { describe, expect, test } from "vitest";
import { DomainCheckLimits, parseDomainCheckLimits } from "./domain-checks";

describe("parseDomainCheckLimits", () => {
  test("30 per workspace in an hour by default; off turns the limit off", () => {
    expect(parseDomainCheckLimits({})).toEqual({ perWorkspace: 30, windowSeconds: 3600 });
    expect(parseDomainCheckLimits({ DOMAIN_CHECK_LIMIT_PER_WORKSPACE: "OFF", DOMAIN_CHECK_LIMIT_WINDOW_SECONDS: "60" })).toEqual({
      perWorkspace: null,
      windowSeconds: 60,
    });
  });

  test.each([
    ["DOMAIN_CHECK_LIMIT_PER_WORKSPACE", "0"],
    ["DOMAIN_CHECK_LIMIT_PER_WORKSPACE", "2.5"],
    ["DOMAIN_CHECK_LIMIT_WINDOW_SECONDS", "off"],
    ["DOMAIN_CHECK_LIMIT_WINDOW_SECONDS", "604801"],
  ])("%s=%s is refused, naming the variable", (name, value) => {
    expect(() => parseDomainCheckLimits({ [name]: value })).toThrow(new RegExp(`invalid configuration: ${name}`));
  });
});

describe("DomainCheckLimits in memory", () => {
  test("a workspace gets its checks, then 429 with the wait; another workspace is unaffected", async () => {
    const limits = new DomainCheckLimits({ perWorkspace: 2, windowSeconds: 3600 }, null);
    await limits.count("ws-1");
    await limits.count("ws-1");
    const refused = await limits.count("ws-1").catch((err: unknown) => err);
    expect(refused).toMatchObject({ code: "resource_exhausted", message: expect.stringMatching(/^too many domain checks in this workspace; try again in \d+ seconds$/) });
    expect((refused as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds).toBeGreaterThan(3000);
    await expect(limits.count("ws-2")).resolves.toBeUndefined();
  });

  test("off counts nothing", async () => {
    const limits = new DomainCheckLimits({ perWorkspace: null, windowSeconds: 3600 }, null);
    for (let i = 0; i < 50; i++) await limits.count("ws-1");
  });
});
