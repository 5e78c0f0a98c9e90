// Run from the app root: npx drizzle-kit generate --config orders/drizzle.config.ts
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  out: "orders/migrations",
  schema: "orders/schema.ts",
  dialect: "postgresql",
});
