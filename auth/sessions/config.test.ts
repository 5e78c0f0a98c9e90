import { describe, expect, test } from "vitest";
import { parseSessionConfig } from "./config";

const day = 24 * 3600;

describe("the session settings", () => {
  test("default to an hour's login token, 14 idle days, 90 days at most, and a 30 s grace", () => {
    expect(parseSessionConfig({})).toEqual({ tokenSeconds: 3600, idleSeconds: 14 * day, maxSeconds: 90 * day, graceSeconds: 30 });
  });

  test("are read from the environment", () => {
    const config = parseSessionConfig({ LOGIN_TOKEN_SECONDS: "120", SESSION_IDLE_DAYS: "7", SESSION_MAX_DAYS: "30" });
    expect(config).toMatchObject({ tokenSeconds: 120, idleSeconds: 7 * day, maxSeconds: 30 * day });
  });

  test.each([
    [{ LOGIN_TOKEN_SECONDS: "0" }, "LOGIN_TOKEN_SECONDS"],
    [{ LOGIN_TOKEN_SECONDS: "1h" }, "LOGIN_TOKEN_SECONDS"],
    [{ LOGIN_TOKEN_SECONDS: String(day + 1) }, "LOGIN_TOKEN_SECONDS"],
    [{ SESSION_IDLE_DAYS: "0" }, "SESSION_IDLE_DAYS"],
    [{ SESSION_MAX_DAYS: "2.5" }, "SESSION_MAX_DAYS"],
    [{ SESSION_IDLE_DAYS: "30", SESSION_MAX_DAYS: "10" }, "SESSION_MAX_DAYS (10) must be at least SESSION_IDLE_DAYS (30)"],
  ])("refuse %o, naming the variable", (env, message) => {
    expect(() => parseSessionConfig(env)).toThrow(message);
  });
});
