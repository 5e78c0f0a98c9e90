// Run from the app root after changing schema.ts: npx drizzle-kit generate --config tasks/drizzle.config.ts
import { defineConfig } from "drizzle-kit";

export default defineConfig({ out: "tasks/migrations", schema: "tasks/schema.ts", dialect: "postgresql" });
