// Boundaries of the repository, checked by `npm run lint` (dependency-cruiser).
// The app is genuine Encore.ts and the runtime is a package of its own: these rules
// keep each side off the other's internals and keep every module graph acyclic.

/** Top-level folders of the Encore app: services and the app's shared code (limits/, access/). */
const appFolders = "^(url|urlb|analytics|auth|users|orders|moderation|web|limits|access)/";

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
