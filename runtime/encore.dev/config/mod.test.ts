import { afterEach, describe, expect, test, vi } from "vitest";

// Configuration is read once per process: each case loads the module afresh under its environment.
async function secretUnder(env: Record<string, string>) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.resetModules();
  return (await import("./mod.ts")).secret;
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("secret()", () => {
  test("reads the environment variable of its name, and never shows it in a string", async () => {
    const secret = await secretUnder({ NODE_ENV: "production", SECRET_TEST_API_KEY: "s3cr3t" });
    const key = secret("SECRET_TEST_API_KEY");
    expect(key()).toBe("s3cr3t");
    expect(key.name).toBe("SECRET_TEST_API_KEY");
    expect(`${key}`).toBe("Secret<SECRET_TEST_API_KEY>(*********)");
  });

  test.each(["development", "test"])("unset, reads as an empty string in %s, as under encore run and encore test", async (nodeEnv) => {
    const secret = await secretUnder({ NODE_ENV: nodeEnv });
    const missing = secret("SECRET_TEST_NEVER_SET");
    expect(missing()).toBe("");
    expect(`${missing}`).toBe("Secret<SECRET_TEST_NEVER_SET>(not set)");
  });

  test("unset, throws in production, naming the variable", async () => {
    const secret = await secretUnder({ NODE_ENV: "production" });
    expect(() => secret("SECRET_TEST_NEVER_SET")()).toThrow("secret SECRET_TEST_NEVER_SET is not set: set the SECRET_TEST_NEVER_SET environment variable");
  });
});
