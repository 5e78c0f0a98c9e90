// Type-checks a generated client as front ends compile it.
import { createRequire } from "node:module";
import path from "node:path";
import ts from "typescript";

/** A front end's usual settings, on top of `strict`. */
const STRICT: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noUncheckedIndexedAccess: true,
  isolatedModules: true,
  verbatimModuleSyntax: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noImplicitReturns: true,
  noFallthroughCasesInSwitch: true,
  noEmit: true,
  skipLibCheck: true,
};

const nodeTypes = path.dirname(path.dirname(createRequire(import.meta.url).resolve("@types/node/package.json")));

/** A browser front end: DOM libs, no Node types. A Node program: ES2022 with @types/node, no DOM. */
export const ENVIRONMENTS: Readonly<Record<"dom" | "node", ts.CompilerOptions>> = {
  dom: { ...STRICT, lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"], types: [] },
  node: { ...STRICT, lib: ["lib.es2022.d.ts"], types: ["node"], typeRoots: [nodeTypes] },
};

/** The compiler's errors for `files` (absolute paths), as "file:line: message" lines; empty when it type-checks. */
export function typeErrors(files: readonly string[], options: ts.CompilerOptions): string[] {
  const program = ts.createProgram({ rootNames: [...files], options });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (!d.file || d.start === undefined) return message;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${path.basename(d.file.fileName)}:${line + 1}: ${message}`;
  });
}
