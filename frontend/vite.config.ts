import { defineConfig } from "vite";

export default defineConfig({
  // Preact's automatic JSX runtime, compiled by Vite's own transformer: no plugin needed.
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    // Every asset under /_app/: "_" is never in a short code (link-rules/codes.ts), so these
    // paths cannot shadow a link, and GET /<code> keeps single-segment paths to itself.
    assetsDir: "_app",
    outDir: "dist",
    emptyOutDir: true,
    // One entry and no dynamic imports: the preload polyfill would be dead weight.
    modulePreload: { polyfill: false },
  },
});
