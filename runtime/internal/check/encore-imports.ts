// Encore itself provides two generated modules, ~encore/clients and ~encore/auth. An app
// importing any other ~encore/* path (one only this runtime writes) would not build
// under `encore run` or Encore Cloud, so `check` reports it.
import { readFileSync } from "node:fs";
import ts from "typescript";
import { toAppPath } from "../parser/program/errors.ts";
import { listSourceFiles } from "../parser/program/program.ts";

const providedByEncore = new Set(["~encore/clients", "~encore/auth"]);

/** One import Encore could not resolve, as "file:line: message". */
export function unknownEncoreImports(appRoot: string): string[] {
  const problems: string[] = [];
  for (const file of listSourceFiles(appRoot)) {
    const text = readFileSync(file, "utf8");
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      const specifier = imported.fileName;
      if (!specifier.startsWith("~encore/") || providedByEncore.has(specifier)) continue;
      const line = text.slice(0, imported.pos).split("\n").length;
      problems.push(`${toAppPath(appRoot, file)}:${line}: "${specifier}" does not exist under Encore, which provides only ~encore/clients and ~encore/auth`);
    }
  }
  return problems;
}
