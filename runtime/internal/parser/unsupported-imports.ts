import ts from "typescript";
import { errorAt } from "./errors.ts";
import type { AppProgram } from "./program.ts";

/** encore.dev modules this runtime does not provide yet: an app using them is refused, not half run. */
const unsupportedModules: Readonly<Record<string, string>> = {
  "encore.dev/storage/cache": "caching (encore.dev/storage/cache)",
};

/** Names of provided modules that this runtime does not implement yet. */
const unsupportedNames: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "encore.dev/types": { Decimal: "the Decimal type" },
  "encore.dev/api": { Cookie: "cookie parameters (Cookie<...>)" },
};

/**
 * Refuses, at generation and with file:line, imports of what the runtime lacks: otherwise
 * the app would fail only when bundled, or (Cookie fields) quietly read the wrong place.
 */
export function checkSupportedImports(app: AppProgram): void {
  for (const file of app.files) {
    for (const statement of file.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const specifier = statement.moduleSpecifier.text;
      const lacking = unsupportedModules[specifier];
      if (lacking) throw errorAt(app.appRoot, statement.moduleSpecifier, `${lacking} is not supported by encore-selfhost yet`);
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
