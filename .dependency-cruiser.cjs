// Boundaries of the repository, checked by `npm run lint` (dependency-cruiser).
// The app is genuine Encore.ts and the runtime is a package of its own: these rules
// keep each side off the other's internals and keep every module graph acyclic.

/**
 * The app's services (folders with an encore.service.ts, each of which may be deployed on its
 * own) and its shared code (folders without one, loaded by every service that imports them).
 */
const { services: serviceNames, shared: sharedNames } = require("./tools/app-folders.cjs");

/** A service folder's name, as group 1 of a path pattern. */
const services = `(${serviceNames.join("|")})`;
const shared = `(${sharedNames.join("|")})`;

/** Top-level folders of the Encore app: its services and its shared code. */
const appFolders = `^(${[...serviceNames, ...sharedNames].join("|")})/`;

/** Files that declare a service's topics and nothing else, which other services may import: each service's events.ts. */
const topicFiles = `^${services}/events\\.ts$`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle makes a module's meaning depend on load order; split the shared part out.",
      from: { pathNot: "^node_modules/" },
      to: { circular: true },
    },
    {
      name: "app-off-runtime",
      severity: "error",
      comment: "App code imports encore.dev/* and ~encore/* only, so it builds and runs under Encore's own CLI.",
      from: { path: appFolders },
      to: { path: "^runtime/" },
    },
    {
      name: "services-apart",
      severity: "error",
      comment:
        "Encore Cloud runs each service on its own, so another service's code would run in this one's process, " +
        "with state of its own. A service reaches another by calls through ~encore/clients and by its declared " +
        "resources only: a database by SQLDatabase.named, a bucket by Bucket.named, and a topic (which a " +
        "Subscription needs as an object) from the other service's events.ts, which declares its topics and nothing else.",
      from: { path: `^${services}/` },
      to: { path: `^${services}/`, pathNot: ["^$1/", topicFiles] },
    },
    {
      name: "events-declare-only",
      severity: "error",
      comment: "Other services import a service's events.ts (services-apart): it carries its topics and their message types, none of its service's code.",
      from: { path: topicFiles },
      to: { path: appFolders },
    },
    {
      name: "shared-off-services",
      severity: "error",
      comment: "Shared code runs inside every service that imports it: reaching into a service would carry that service's code (and state) into the others.",
      from: { path: `^${shared}/` },
      to: { path: `^${services}/` },
    },
    {
      name: "app-off-test-helpers",
      severity: "error",
      comment: "What the app deploys runs without the repository's test helpers (test/): only tests may use them.",
      from: { path: appFolders, pathNot: "\\.test\\.ts$" },
      to: { path: "^test/" },
    },
    {
      name: "runtime-off-app-test-helpers",
      severity: "error",
      comment: "The runtime is a package of its own, which other apps install: the app's test helpers (test/support/) know this app's endpoints, accounts and links.",
      from: { path: "^runtime/" },
      to: { path: "^test/" },
    },
    {
      name: "internal-off-public-face",
      severity: "error",
      comment: "runtime/encore.dev is the face the app sees; the machinery below it never reaches back up into it.",
      from: { path: "^runtime/internal/", pathNot: "\\.test\\.ts$" },
      to: { path: "^runtime/encore\\.dev/" },
    },
    {
      name: "shipped-off-test-helpers",
      severity: "error",
      comment: "What the package ships runs without its test helpers, which stay out of the tarball.",
      from: { path: "^runtime/(cli|encore\\.dev|internal|loader|vitest)/", pathNot: "\\.test\\.ts$|/testdata/" },
      to: { path: "^runtime/test/" },
    },
    {
      name: "comparison-queues-in-bench-only",
      severity: "error",
      comment: "Graphile Worker is a dev dependency for bench:pubsub to measure against; nothing the app or the runtime runs may use it.",
      from: { pathNot: "^bench/" },
      to: { path: "node_modules/graphile-worker/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(encore\\.gen|node_modules|dist|testdata)/|^\\.data/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
  },
};
