import ts from "typescript";
import { errorAt } from "../program/errors.ts";
import type { AppProgram } from "../program/program.ts";

/**
 * Names in encore.dev modules this runtime implements that it does not implement yet
 * (whole modules it lacks are refused by encore-dev-imports.ts).
 */
export const unsupportedNames: Readonly<Record<string, Readonly<Record<string, string>>>> = {};

/**
 * Refuses, at generation and with file:line, imports of names the runtime lacks: otherwise
 * the app would fail only when bundled, or (Cookie fields) quietly read the wrong place.
 */
export function checkSupportedImports(app: AppProgram): void {
  for (const file of app.files) {
    for (const statement of file.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const specifier = statement.moduleSpecifier.text;
      const names = unsupportedNames[specifier];
      const bindings = statement.importClause?.namedBindings;
      if (!names || !bindings || !ts.isNamedImports(bindings)) continue;
      for (const element of bindings.elements) {
        const imported = (element.propertyName ?? element.name).text;
        if (names[imported]) throw errorAt(app.appRoot, element, `${names[imported]} from ${specifier} is not supported by encore-selfhost yet`);
      }
    }
  }
}
