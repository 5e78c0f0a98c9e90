import { defineConfig } from "vite";

export default defineConfig({
  // Preact's automatic JSX runtime, compiled by Vite's own transformer: no plugin needed.
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // The flow diagram's layout (dagre) is its own chunk, loaded when that page opens;
    // every browser the dashboard targets has modulepreload, so no polyfill.
    modulePreload: { polyfill: false },
  },
});
