import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AppMeta, EndpointMeta } from "../internal/meta/types.ts";
import { ParseError, parseApp } from "../internal/parser/mod.ts";

/** Where the parser's fixture apps live (runtime/internal/parser/testdata) and how to point at lines inside them. */
export const TESTDATA = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "internal", "parser", "testdata");

export function fixture(name: string): string {
  return path.join(TESTDATA, name);
}

/** 1-based line of the first line in `file` (relative to the fixture root) containing `needle`. */
export function lineOf(fixtureRoot: string, file: string, needle: string): number {
  const lines = fs.readFileSync(path.join(fixtureRoot, file), "utf8").split("\n");
  const index = lines.findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`"${needle}" not found in ${file}`);
  return index + 1;
}

export function endpointOf(meta: AppMeta, service: string, name: string): EndpointMeta {
  const found = meta.services.find((s) => s.name === service)?.endpoints.find((e) => e.name === name);
  if (!found) throw new Error(`no endpoint ${service}.${name}`);
  return found;
}

/** The ParseError that parsing the fixture app at `root` must end with. */
export function parseError(root: string): ParseError {
  try {
    parseApp(root);
  } catch (error) {
    if (error instanceof ParseError) return error;
    throw error;
  }
  throw new Error(`parsing ${root} succeeded`);
}

/** `value` without the "x-encore-ref" annotations of named types, for tests about the shape alone. */
export function withoutRefs<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutRefs) as T;
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).filter(([key]) => key !== "x-encore-ref").map(([key, child]) => [key, withoutRefs(child)]),
  ) as T;
}
