import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";
// The Encore app: its service folders and its shared code, from tsconfig.json.
import appFolderLists from "./tools/app-folders.cjs";

const { appFolders } = appFolderLists;

// Graphile Worker is a dev dependency for bench:pubsub to measure the SQL provider against; nothing else may use it.
const benchOnly = { name: "graphile-worker", message: "Graphile Worker is only bench:pubsub's point of comparison (bench/)" };

export default tseslint.config(
  { ignores: ["node_modules/", "encore.gen/", ".data/", "runtime/internal/parser/testdata/", "runtime/testdata/", "frontend/dist/", "frontend/src/client.gen.ts", "runtime/dashboard/dist/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    ignores: ["bench/**"],
    rules: { "no-restricted-imports": ["error", { paths: [benchOnly] }] },
  },
  {
    // CommonJS on purpose: dependency-cruiser loads its configuration with require().
    files: ["**/*.cjs"],
    languageOptions: { globals: { ...globals.commonjs } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // The web front end and the development dashboard's page run in the browser.
    files: ["frontend/src/**/*.{ts,tsx}", "runtime/dashboard/src/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The app stays genuine Encore.ts: it may import encore.dev/* and ~encore/*, never the runtime.
    files: appFolders.map((s) => `${s}/**/*.ts`),
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [benchOnly],
          patterns: [
            { regex: "(^|/)runtime(/|$)", message: "app code imports encore.dev/* or ~encore/*, never runtime/" },
            {
              regex: "^~encore/(?!(clients|auth)$)",
              message: "Encore provides ~encore/clients and ~encore/auth only; anything else would not build under encore run",
            },
          ],
        },
      ],
    },
  },
);
