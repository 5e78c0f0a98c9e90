import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { appRoot } from "./app-root.ts";

/** Local development secrets: a JSON object of name to value, never committed. */
export const localSecretsFile = ".secrets.local.json";

let values: ReadonlyMap<string, string> | undefined;

/**
 * Looks a secret up: the environment variable of the same name wins over the
 * local secrets file. Both are read once, on first use.
 */
export function lookupSecret(name: string): string | undefined {
  values ??= loadSecrets(process.env);
  return values.get(name);
}

function loadSecrets(env: NodeJS.ProcessEnv): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  const file = path.join(appRoot, localSecretsFile);
  if (existsSync(file)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      throw new Error(`${localSecretsFile} is not valid JSON: ${(err as Error).message}`, { cause: err });
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new Error(`${localSecretsFile} must hold a JSON object of secret names to string values`);
    }
    for (const [k, v] of Object.entries(parsed)) {
      if (typeof v !== "string") throw new Error(`${localSecretsFile}: secret "${k}" must be a string`);
      map.set(k, v);
    }
  }
  for (const [k, v] of Object.entries(env)) if (v !== undefined) map.set(k, v);
  return map;
}
