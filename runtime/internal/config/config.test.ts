import { describe, expect, test } from "vitest";
import { ConfigError, parseConfig } from "./config.ts";

const root = "/app";

describe("configuration", () => {
  test("defaults need nothing set", () => {
    const cfg = parseConfig({}, root);
    expect(cfg).toMatchObject({
      port: 4000,
      publicBaseUrl: "http://localhost:4000",
      databaseUrl: null,
      dataDir: "/app/.data",
      pgliteStorage: "disk",
      databaseNamePrefix: "",
      logLevel: "info",
      exposeInternalErrors: false,
      natsUrl: null,
      pubsubAdminToken: null,
      cron: true,
    });
    expect(Object.isFrozen(cfg)).toBe(true);
  });

  test("PUBLIC_BASE_URL follows PORT by default and loses a trailing slash when set", () => {
    expect(parseConfig({ PORT: "8080" }, root).publicBaseUrl).toBe("http://localhost:8080");
    expect(parseConfig({ PUBLIC_BASE_URL: "https://sho.rt/" }, root).publicBaseUrl).toBe("https://sho.rt");
    expect(parseConfig({ PUBLIC_BASE_URL: "https://x.io/s/" }, root).publicBaseUrl).toBe("https://x.io/s");
  });

  test("NATS_URL takes one server or a comma-separated cluster", () => {
    expect(parseConfig({ NATS_URL: "nats://127.0.0.1:4222" }, root).natsUrl).toBe("nats://127.0.0.1:4222");
    expect(parseConfig({ NATS_URL: "nats://a:4222, nats://b:4222" }, root).natsUrl).toBe("nats://a:4222,nats://b:4222");
  });

  test("CRON=off keeps an instance from running scheduled jobs", () => {
    expect(parseConfig({ CRON: "off" }, root).cron).toBe(false);
    expect(parseConfig({ CRON: "ON" }, root).cron).toBe(true);
  });

  test.each([
    ["PORT", { PORT: "eighty" }],
    ["PORT", { PORT: "70000" }],
    ["PUBLIC_BASE_URL", { PUBLIC_BASE_URL: "sho.rt" }],
    ["PUBLIC_BASE_URL", { PUBLIC_BASE_URL: "ftp://sho.rt" }],
    ["DATABASE_URL", { DATABASE_URL: "mysql://localhost/db" }],
    ["DATABASE_URL", { DATABASE_URL: "not a url" }],
    ["PGLITE_STORAGE", { PGLITE_STORAGE: "tape" }],
    ["DATABASE_NAME_PREFIX", { DATABASE_NAME_PREFIX: "Bad-Prefix" }],
    ["LOG_LEVEL", { LOG_LEVEL: "loud" }],
    ["DEBUG_ERRORS", { DEBUG_ERRORS: "sometimes" }],
    ["NATS_URL", { NATS_URL: "http://127.0.0.1:4222" }],
    ["NATS_URL", { NATS_URL: "nats://a:4222, ::bad" }],
    ["PUBSUB_ADMIN_TOKEN", { PUBSUB_ADMIN_TOKEN: "short" }],
    ["CRON", { CRON: "disabled" }],
  ])("a bad %s is an error naming the variable", (variable, env) => {
    expect(() => parseConfig(env, root)).toThrowError(ConfigError);
    expect(() => parseConfig(env, root)).toThrowError(new RegExp(`^invalid configuration: ${variable} `));
  });
});
