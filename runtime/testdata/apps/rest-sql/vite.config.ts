/// <reference types="vitest" />
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The alias Encore's example apps ship for running vitest on their own: ~encore/* is
// the code generated into encore.gen/.
export default defineConfig({
  resolve: {
    alias: {
      "~encore": fileURLToPath(new URL("./encore.gen", import.meta.url)),
    },
  },
});
