// How the runtime bundles TypeScript for plain Node, for npm start's server bundle and for
// the runtime's own build steps alike: ESM for Node 20, npm packages left to Node to load.
export const nodeBundle = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: "inline",
  logLevel: "warning",
};
