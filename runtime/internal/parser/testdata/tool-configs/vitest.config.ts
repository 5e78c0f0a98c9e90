// A tool's configuration: left out of the parse, with the tool's types.
import { defineConfig } from "vitest/config";

export default defineConfig({ test: {} });
