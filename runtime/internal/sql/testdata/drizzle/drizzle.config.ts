// Regenerate the fixture migrations from this folder with `npx drizzle-kit generate`.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  out: "migrations",
  schema: "schema.ts",
  dialect: "postgresql",
});
