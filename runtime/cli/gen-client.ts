// encore-selfhost gen client: a typed client for the app's exposed endpoints, as `encore gen client` writes it.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { appRoot } from "../internal/config/app-root.ts";
import { generate } from "../internal/codegen/generate.ts";
import { appName } from "../internal/meta/app-name.ts";
import { ClientGenError, generateClient, unknownService } from "../internal/clientgen/mod.ts";
import { ParseError } from "../internal/parser/mod.ts";
import { CLIENT_USAGE, parseClientArgs } from "./gen-client-args.ts";

const args = process.argv.slice(2);
const parsed = args.includes("--help") || args.includes("-h") ? null : parseClientArgs(args);
if (parsed === null) {
  console.log(`usage: ${CLIENT_USAGE}`);
} else if ("error" in parsed) {
  usageError(parsed.error);
} else {
  try {
    // The app as `gen` reads it: parsed again only when its sources changed.
    const { meta } = generate(appRoot);
    // A misspelt service is a usage error (exit 2), as an unknown flag is.
    const unknown = unknownService(meta, parsed);
    if (unknown !== null) {
      usageError(unknown);
    } else {
      const code = generateClient(meta, { ...parsed, appSlug: appName(meta, appRoot) });
      if (parsed.output === null) {
        process.stdout.write(code);
      } else {
        const file = path.resolve(parsed.output);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, code);
      }
    }
  } catch (err) {
    if (!(err instanceof ParseError || err instanceof ClientGenError)) throw err;
    console.error(`encore-selfhost gen client: ${err.message}`);
    process.exitCode = 1;
  }
}

function usageError(message: string): void {
  console.error(`encore-selfhost gen client: ${message}\n\nusage: ${CLIENT_USAGE}`);
  process.exitCode = 2;
}
