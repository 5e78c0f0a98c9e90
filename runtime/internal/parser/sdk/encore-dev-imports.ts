import ts from "typescript";
import { encoreDevRefusal, isEncoreDevSpecifier } from "./encore-dev-modules.mjs";
import { ParseError, toAppPath } from "../program/errors.ts";
import type { AppProgram } from "../program/program.ts";

/**
 * Refuses, at generation and with file:line, an encore.dev import that encore.dev does not
 * publish or that this runtime does not implement: under Encore it would not build, and
 * here it would otherwise fail only when the module is loaded. Every form counts: import,
 * export from, import() and require().
 */
export function checkEncoreDevImports(app: AppProgram): void {
  for (const file of app.files) {
    for (const imported of ts.preProcessFile(file.text, true, true).importedFiles) {
      if (!isEncoreDevSpecifier(imported.fileName)) continue;
      const refusal = encoreDevRefusal(imported.fileName);
      if (!refusal) continue;
      const path = toAppPath(app.appRoot, file.fileName);
      const line = file.getLineAndCharacterOfPosition(imported.pos).line + 1;
      throw new ParseError(`${path}:${line}: imports ${refusal}`, path, line);
    }
  }
}
