import { describe, expect, test } from "vitest";
import { ConfigError, parseConfig } from "./config.ts";

const root = "/app";

describe("configuration", () => {
  test("defaults need nothing set", () => {
    const cfg = parseConfig({}, root);
    expect(cfg).toMatchObject({
      host: "0.0.0.0",
      hostSet: false,
      port: 4000,
      publicBaseUrl: "http://localhost:4000",
      databaseUrl: null,
      dataDir: "/app/.data",
      sql: { maxConnections: 40, connectTimeoutMs: 5000, queryTimeoutMs: 30_000 },
      databaseNamePrefix: "",
      logLevel: "info",
      exposeInternalErrors: false,
      natsUrl: null,
      redisUrl: null,
      pubsubAdminToken: null,
      cron: true,
      shutdownDelayMs: 0,
      trustProxy: false,
      serveOpenApi: false,
      tracing: { buffer: 1000, otlpTracesUrl: null, serviceName: null },
      metrics: { port: null, token: null },
      objects: {
        provider: "local",
        signingKey: null,
        publicBaseUrl: null,
        s3: { endpoint: null, region: "us-east-1", credentials: null, bucketPrefix: "", forcePathStyle: false },
      },
    });
    expect(Object.isFrozen(cfg)).toBe(true);
    expect(Object.isFrozen(cfg.objects.s3)).toBe(true);
  });

  test("OBJECTS_S3_* settings, with path-style URLs by default for an S3-compatible endpoint", () => {
    const cfg = parseConfig(
      {
        OBJECTS_PROVIDER: "s3",
        OBJECTS_S3_ENDPOINT: "http://127.0.0.1:9000",
        OBJECTS_S3_REGION: "eu-west-1",
        OBJECTS_S3_ACCESS_KEY_ID: "minio",
        OBJECTS_S3_SECRET_ACCESS_KEY: "minio-secret",
        OBJECTS_S3_BUCKET_PREFIX: "prod-",
        OBJECTS_PUBLIC_BASE_URL: "https://cdn.sho.rt/files/",
        OBJECTS_SIGNING_KEY: "k".repeat(32),
      },
      root,
    );
    expect(cfg.objects).toEqual({
      provider: "s3",
      signingKey: "k".repeat(32),
      publicBaseUrl: "https://cdn.sho.rt/files",
      s3: {
        endpoint: "http://127.0.0.1:9000",
        region: "eu-west-1",
        credentials: { accessKeyId: "minio", secretAccessKey: "minio-secret" },
        bucketPrefix: "prod-",
        forcePathStyle: true,
      },
    });
    const aws = parseConfig({ OBJECTS_PROVIDER: "S3", OBJECTS_S3_FORCE_PATH_STYLE: "true" }, root).objects;
    expect([aws.provider, aws.s3.endpoint, aws.s3.forcePathStyle]).toEqual(["s3", null, true]);
  });

  test("HOST is every interface when unset, and says whether it was set (run listens on loopback without it)", () => {
    expect(parseConfig({ HOST: " " }, root)).toMatchObject({ host: "0.0.0.0", hostSet: false });
    expect(parseConfig({ HOST: " ::1 " }, root)).toMatchObject({ host: "::1", hostSet: true });
  });

  test("PUBLIC_BASE_URL follows PORT by default and loses a trailing slash when set", () => {
    expect(parseConfig({ PORT: "8080" }, root).publicBaseUrl).toBe("http://localhost:8080");
    expect(parseConfig({ PUBLIC_BASE_URL: "https://sho.rt/" }, root).publicBaseUrl).toBe("https://sho.rt");
    expect(parseConfig({ PUBLIC_BASE_URL: "https://x.io/s/" }, root).publicBaseUrl).toBe("https://x.io/s");
  });

  test("REDIS_URL takes a redis:// or rediss:// URL", () => {
    expect(parseConfig({ REDIS_URL: " redis://127.0.0.1:6379/2 " }, root).redisUrl).toBe("redis://127.0.0.1:6379/2");
    expect(parseConfig({ REDIS_URL: "rediss://cache.internal" }, root).redisUrl).toBe("rediss://cache.internal");
  });

  test("NATS_URL takes one server or a comma-separated cluster", () => {
    expect(parseConfig({ NATS_URL: "nats://127.0.0.1:4222" }, root).natsUrl).toBe("nats://127.0.0.1:4222");
    expect(parseConfig({ NATS_URL: "nats://a:4222, nats://b:4222" }, root).natsUrl).toBe("nats://a:4222,nats://b:4222");
  });

  test("CRON=off keeps an instance from running scheduled jobs", () => {
    expect(parseConfig({ CRON: "off" }, root).cron).toBe(false);
    expect(parseConfig({ CRON: "ON" }, root).cron).toBe(true);
  });

  test("SHUTDOWN_DELAY_MS keeps serving that long after SIGTERM", () => {
    expect(parseConfig({ SHUTDOWN_DELAY_MS: "5000" }, root).shutdownDelayMs).toBe(5000);
  });

  test("DATABASE_* size the connections and bound the waits", () => {
    expect(
      parseConfig({ DATABASE_MAX_CONNECTIONS: "12", DATABASE_CONNECT_TIMEOUT_MS: "250", DATABASE_QUERY_TIMEOUT_MS: "0" }, root).sql,
    ).toEqual({ maxConnections: 12, connectTimeoutMs: 250, queryTimeoutMs: 0 });
  });

  test("TRUST_PROXY=on says one load balancer stands in front", () => {
    expect(parseConfig({ TRUST_PROXY: "on" }, root).trustProxy).toBe(true);
    expect(parseConfig({ TRUST_PROXY: "Off" }, root).trustProxy).toBe(false);
    expect(parseConfig({ SERVE_OPENAPI: "on" }, root).serveOpenApi).toBe(true);
    expect(() => parseConfig({ SERVE_OPENAPI: "yes" }, root)).toThrow(/SERVE_OPENAPI/);
  });

  test("OTLP: the traces endpoint is used as given, the general one gets /v1/traces; TRACE_BUFFER and OTEL_SERVICE_NAME", () => {
    expect(parseConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }, root).tracing.otlpTracesUrl).toBe(
      "http://collector:4318/v1/traces",
    );
    expect(parseConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://otel.example/base/" }, root).tracing.otlpTracesUrl).toBe(
      "https://otel.example/base/v1/traces",
    );
    const both = parseConfig(
      { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://tempo:4318/custom" },
      root,
    );
    expect(both.tracing.otlpTracesUrl).toBe("http://tempo:4318/custom");
    expect(parseConfig({ TRACE_BUFFER: "50", OTEL_SERVICE_NAME: " shortener " }, root).tracing).toEqual({
      buffer: 50,
      otlpTracesUrl: null,
      serviceName: "shortener",
    });
  });

  test("metrics: METRICS_PORT and METRICS_TOKEN, either or both", () => {
    expect(parseConfig({ METRICS_PORT: "9464" }, root).metrics).toEqual({ port: 9464, token: null });
    expect(parseConfig({ METRICS_TOKEN: " scrape-token-0123456789 " }, root).metrics).toEqual({ port: null, token: "scrape-token-0123456789" });
    expect(parseConfig({ METRICS_PORT: "0", METRICS_TOKEN: "scrape-token-0123456789" }, root).metrics).toEqual({
      port: 0,
      token: "scrape-token-0123456789",
    });
  });

  test.each([
    ["METRICS_PORT", { METRICS_PORT: "prometheus" }],
    ["METRICS_PORT", { METRICS_PORT: "4000" }],
    ["METRICS_PORT", { PORT: "8080", METRICS_PORT: "8080" }],
    ["METRICS_TOKEN", { METRICS_TOKEN: "short" }],
    ["METRICS_TOKEN", { METRICS_TOKEN: "has spaces inside it, sadly" }],
    ["PORT", { PORT: "eighty" }],
    ["PORT", { PORT: "70000" }],
    ["PUBLIC_BASE_URL", { PUBLIC_BASE_URL: "sho.rt" }],
    ["PUBLIC_BASE_URL", { PUBLIC_BASE_URL: "ftp://sho.rt" }],
    ["DATABASE_URL", { DATABASE_URL: "mysql://localhost/db" }],
    ["DATABASE_URL", { DATABASE_URL: "not a url" }],
    ["DATABASE_MAX_CONNECTIONS", { DATABASE_MAX_CONNECTIONS: "2" }],
    ["DATABASE_MAX_CONNECTIONS", { DATABASE_MAX_CONNECTIONS: "many" }],
    ["DATABASE_CONNECT_TIMEOUT_MS", { DATABASE_CONNECT_TIMEOUT_MS: "1.5" }],
    ["DATABASE_QUERY_TIMEOUT_MS", { DATABASE_QUERY_TIMEOUT_MS: "-1" }],
    ["DATABASE_NAME_PREFIX", { DATABASE_NAME_PREFIX: "Bad-Prefix" }],
    ["LOG_LEVEL", { LOG_LEVEL: "loud" }],
    ["DEBUG_ERRORS", { DEBUG_ERRORS: "sometimes" }],
    ["NATS_URL", { NATS_URL: "http://127.0.0.1:4222" }],
    ["NATS_URL", { NATS_URL: "nats://a:4222, ::bad" }],
    ["REDIS_URL", { REDIS_URL: "http://127.0.0.1:6379" }],
    ["REDIS_URL", { REDIS_URL: "127.0.0.1:6379" }],
    ["PUBSUB_ADMIN_TOKEN", { PUBSUB_ADMIN_TOKEN: "short" }],
    ["CRON", { CRON: "disabled" }],
    ["SHUTDOWN_DELAY_MS", { SHUTDOWN_DELAY_MS: "5s" }],
    ["SHUTDOWN_DELAY_MS", { SHUTDOWN_DELAY_MS: "300001" }],
    ["TRUST_PROXY", { TRUST_PROXY: "yes" }],
    ["OBJECTS_PROVIDER", { OBJECTS_PROVIDER: "gcs" }],
    ["OBJECTS_SIGNING_KEY", { OBJECTS_SIGNING_KEY: "too-short" }],
    ["OBJECTS_PUBLIC_BASE_URL", { OBJECTS_PUBLIC_BASE_URL: "cdn.sho.rt" }],
    ["OBJECTS_PUBLIC_BASE_URL", { OBJECTS_PUBLIC_BASE_URL: "https://cdn.sho.rt/?v=1" }],
    ["OBJECTS_S3_ENDPOINT", { OBJECTS_S3_ENDPOINT: "s3://bucket" }],
    ["OBJECTS_S3_REGION", { OBJECTS_S3_REGION: "EU West" }],
    ["OBJECTS_S3_SECRET_ACCESS_KEY", { OBJECTS_S3_ACCESS_KEY_ID: "minio" }],
    ["OBJECTS_S3_ACCESS_KEY_ID", { OBJECTS_S3_SECRET_ACCESS_KEY: "minio-secret" }],
    ["OBJECTS_S3_BUCKET_PREFIX", { OBJECTS_S3_BUCKET_PREFIX: "Prod_" }],
    ["OBJECTS_S3_BUCKET_PREFIX", { OBJECTS_S3_BUCKET_PREFIX: "-prod" }],
    ["OBJECTS_S3_BUCKET_PREFIX", { OBJECTS_S3_BUCKET_PREFIX: "a..b" }],
    ["OBJECTS_S3_BUCKET_PREFIX", { OBJECTS_S3_BUCKET_PREFIX: "xn--x" }],
    ["OBJECTS_S3_FORCE_PATH_STYLE", { OBJECTS_S3_FORCE_PATH_STYLE: "maybe" }],
    ["TRACE_BUFFER", { TRACE_BUFFER: "0" }],
    ["TRACE_BUFFER", { TRACE_BUFFER: "lots" }],
    ["OTEL_EXPORTER_OTLP_ENDPOINT", { OTEL_EXPORTER_OTLP_ENDPOINT: "localhost:4318" }],
    ["OTEL_EXPORTER_OTLP_ENDPOINT", { OTEL_EXPORTER_OTLP_ENDPOINT: "grpc://collector:4317" }],
    ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "not a url" }],
  ])("a bad %s is an error naming the variable", (variable, env) => {
    expect(() => parseConfig(env, root)).toThrowError(ConfigError);
    expect(() => parseConfig(env, root)).toThrowError(new RegExp(`^invalid configuration: ${variable} `));
  });
});

describe("Encore's error-answer variables", () => {
  test("read as Encore reads them: set, not empty and not 0", () => {
    const base = {};
    expect(parseConfig(base, "/app").errorExtras).toEqual({ internalMessage: false, stack: false });
    expect(parseConfig({ ...base, ENCORE_API_INCLUDE_INTERNAL_MESSAGE: "1", ENCORE_API_INCLUDE_ERROR_STACK: "true" }, "/app").errorExtras).toEqual({ internalMessage: true, stack: true });
    expect(parseConfig({ ...base, ENCORE_API_INCLUDE_INTERNAL_MESSAGE: "0", ENCORE_API_INCLUDE_ERROR_STACK: "" }, "/app").errorExtras).toEqual({ internalMessage: false, stack: false });
  });
});
