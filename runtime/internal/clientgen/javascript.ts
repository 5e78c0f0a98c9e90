import ts from "typescript";
import type { AppMeta } from "../meta/types.ts";
import type { ClientFilters } from "./select.ts";
import { typescriptClient } from "./typescript.ts";

/**
 * The JavaScript client (an ES module): the TypeScript client with its types removed by
 * the TypeScript compiler, so the two cannot drift apart. Service clients are plain
 * classes reached as `<service>.ServiceClient`, as in Encore's JavaScript client.
 */
export function javascriptClient(meta: AppMeta, appSlug: string, filters: ClientFilters): string {
  const source = typescriptClient(meta, appSlug, filters, "class");
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      // Class fields stay assignments in the constructor, as written.
      useDefineForClassFields: false,
      removeComments: false,
    },
    reportDiagnostics: false,
  });
  return outputText;
}
