import { encoreSelfhost } from "encore-selfhost/vitest";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

// Database tests run on one PostgreSQL server per run (runtime/vitest/test-server.ts):
// an embedded cluster started for the run, or TEST_DATABASE_URL's server when set.
const serverName = process.env.TEST_DATABASE_URL?.trim() ? "postgres" : "embedded";
// With TEST_NATS_URL set, the NATS provider's own tests run, and the pub/sub tests
// of the app run a second time with messages carried by NATS.
const natsUrl = process.env.TEST_NATS_URL?.trim();
const needsNats = "**/*.nats.test.ts";
// With TEST_REDIS_URL set, the tests of limits shared through Redis run (REDIS_URL set for them).
const redisUrl = process.env.TEST_REDIS_URL?.trim();
const needsRedis = "**/*.redis.test.ts";
// The packed runtime installed into the fixture apps (npm run test:apps): minutes of npm
// install and every fixture app served, so a run of its own rather than part of npm test.
const fixtureApps = "**/*.apps.test.ts";
// The web front end and the development dashboard in headless Chromium against the app's
// own process (npm run test:browser builds the front end first): a browser is not part of npm test.
const browserTests = ["frontend/test/*.browser.test.ts", "runtime/dashboard/test/*.browser.test.ts"];
// The fault and fuzz suite (npm run test:faults): the app as a process under load while its
// database or NATS stops, SIGTERM and SIGKILL, 10,000 generated hostile requests. Minutes,
// a nats-server of its own, and figures for the README: a run of its own, not part of npm test.
const faultTests = "test/faults/**/*.faults.test.ts";
// The container image (npm run test:docker): built from this tree and from the previous
// release, run as replicas behind nginx on the machine's PostgreSQL, NATS and Redis. It
// needs a Docker engine and minutes of image builds: a run of its own, not part of npm test.
const dockerTests = "test/docker/**/*.docker.test.ts";

const projects: TestProjectInlineConfiguration[] = [
  {
    extends: true,
    test: {
      name: serverName,
      include: ["**/*.test.ts"],
      exclude: ["**/node_modules/**", "**/testdata/**", "encore.gen/**", needsNats, needsRedis, fixtureApps, faultTests, dockerTests, ...browserTests],
    },
  },
];
if (natsUrl) {
  projects.push({
    extends: true,
    test: {
      name: "nats",
      env: { NATS_URL: natsUrl },
      include: [needsNats, "test/events.http.test.ts", "runtime/internal/server/runtime-routes/pubsub-admin.test.ts"],
    },
  });
}

if (redisUrl) {
  projects.push({ extends: true, test: { name: "redis", env: { REDIS_URL: redisUrl }, include: [needsRedis] } });
}

if (process.env.TEST_FIXTURE_APPS) {
  projects.push({ extends: true, test: { name: "apps", include: [fixtureApps] } });
}

if (process.env.TEST_BROWSER) {
  projects.push({ extends: true, test: { name: "browser", include: browserTests, fileParallelism: false } });
}

if (process.env.TEST_FAULTS) {
  // One case at a time: each measures load, and a fault of one would disturb another's figures.
  projects.push({ extends: true, test: { name: "faults", include: [faultTests], fileParallelism: false } });
}

if (process.env.TEST_DOCKER) {
  // One file at a time: each runs replicas and a proxy on this machine's ports and databases.
  projects.push({
    extends: true,
    test: { name: "docker", include: [dockerTests], globalSetup: ["test/docker/support/global-setup.ts"], fileParallelism: false, hookTimeout: 600_000 },
  });
}

export default defineConfig({
  // encore.dev/* and ~encore/* resolve to the runtime; one PostgreSQL server per run.
  plugins: [encoreSelfhost()],
  test: {
    // Test files run three at a time. Most of their time is spent waiting on an app
    // process, a database or a timer, not on a core: vitest's default on two cores (one
    // file at a time) took about 8 minutes a run, three take under 3. Browser and
    // fault cases stay one at a time (their projects say so): they measure, or drive a browser.
    maxWorkers: 3,
    // Each project names its own files: a project's list adds to this one, it does not replace it.
    exclude: ["**/node_modules/**", "**/testdata/**", "encore.gen/**"],
    env: {
      LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
      PUBLIC_BASE_URL: "https://sho.rt",
      // The suites shorten hundreds of links from one address (127.0.0.1); the limits'
      // own tests set theirs (test/shorten-limits.http.test.ts).
      SHORTEN_LIMIT_PER_ADDRESS: "off",
      SHORTEN_LIMIT_PER_USER: "off",
      // Likewise sign-ups (test/signup-limits.http.test.ts sets its own).
      SIGNUP_LIMIT_PER_ADDRESS: "off",
      // Limits in memory, whatever the shell has: the redis project sets its own.
      REDIS_URL: "",
    },
    projects,
  },
});
