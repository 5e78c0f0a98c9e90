import path from "node:path";
import ts from "typescript";
import type { SourceLocation } from "../../meta/types.ts";

/** A problem in the app's source that stops it from being served. */
export class ParseError extends Error {
  constructor(
    message: string,
    readonly file?: string,
    readonly line?: number,
  ) {
    super(message);
    this.name = "ParseError";
  }
}

/** `absolute` relative to the app root, with forward slashes on every platform. */
export function toAppPath(appRoot: string, absolute: string): string {
  return path.relative(appRoot, absolute).split(path.sep).join("/");
}

export function locationOf(appRoot: string, node: ts.Node): SourceLocation {
  const sourceFile = node.getSourceFile();
  const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
  return { file: toAppPath(appRoot, sourceFile.fileName), line: line + 1 };
}

/** A ParseError whose message starts with "file:line: " so it reads like a compiler diagnostic. */
export function errorAt(appRoot: string, node: ts.Node, detail: string): ParseError {
  const { file, line } = locationOf(appRoot, node);
  return new ParseError(`${file}:${line}: ${detail}`, file, line);
}
