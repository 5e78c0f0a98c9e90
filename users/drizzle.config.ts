// Run from the app root: npx drizzle-kit generate --config users/drizzle.config.ts
import { defineConfig } from "drizzle-kit";

export default defineConfig({ out: "users/migrations", schema: "users/schema.ts", dialect: "postgresql" });
