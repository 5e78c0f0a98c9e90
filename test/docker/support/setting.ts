// What every replica of the suite is given: the machine's PostgreSQL, NATS and Redis (the
// suite fails at once when one is not named), the production secrets, and a database
// prefix of the case's own. Ports are free ones of this machine: replicas share its network.
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";

export interface Services {
  readonly databaseUrl: string;
  readonly natsUrl: string;
  readonly redisUrl: string;
}

export function services(): Services {
  const missing = ["TEST_DATABASE_URL", "TEST_NATS_URL", "TEST_REDIS_URL"].filter((name) => !process.env[name]?.trim());
  if (missing.length > 0) throw new Error(`the docker suite runs the image against real servers: set ${missing.join(", ")} (npm run test:docker)`);
  return { databaseUrl: process.env.TEST_DATABASE_URL!, natsUrl: process.env.TEST_NATS_URL!, redisUrl: process.env.TEST_REDIS_URL! };
}

/** The environment of a case's replicas: all of them get the same, as behind one load balancer. */
export function replicaEnv(s: Services, prefix: string, publicBaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: s.databaseUrl,
    DATABASE_NAME_PREFIX: prefix,
    NATS_URL: s.natsUrl,
    REDIS_URL: s.redisUrl,
    JWTSecret: randomBytes(32).toString("base64"),
    OBJECTS_SIGNING_KEY: randomBytes(32).toString("base64"),
    PUBLIC_BASE_URL: publicBaseUrl,
    TRUST_PROXY: "on",
    QR_CODES: "on",
    // The suite's clicks and links all come from one address.
    SHORTEN_LIMIT_PER_ADDRESS: "off",
    LOG_LEVEL: "info",
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
