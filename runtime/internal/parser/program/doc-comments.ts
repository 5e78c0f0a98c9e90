import ts from "typescript";

/**
 * The doc comment of a declaration, by Encore's rule: the comments directly above it, with
 * no blank line between. Consecutive `//` lines are joined; a block comment (`/* *\/` or
 * `/** *\/`) counts alone, and ends the search upwards. JSDoc's leading `*` on each line is
 * removed, and the text is trimmed. Null when there is none.
 */
export function docCommentBefore(node: ts.Node): string | null {
  const file = node.getSourceFile();
  const text = file.text;
  const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  const nodeLine = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
  const picked: ts.CommentRange[] = [];
  for (let i = ranges.length - 1, distance = 1; i >= 0; i--, distance++) {
    const range = ranges[i]!;
    const block = range.kind === ts.SyntaxKind.MultiLineCommentTrivia;
    if (block && picked.length > 0) break; // only line comments are combined
    const endLine = file.getLineAndCharacterOfPosition(range.end).line;
    if (endLine < nodeLine - distance) break; // a blank line in between
    picked.unshift(range);
    if (block) break;
  }
  const lines = picked.flatMap((range) => commentLines(text.slice(range.pos, range.end), range.kind));
  const doc = lines.join("\n").trim();
  return doc === "" ? null : doc;
}

function commentLines(raw: string, kind: ts.CommentKind): string[] {
  if (kind === ts.SyntaxKind.SingleLineCommentTrivia) return [raw.slice(2).trim()];
  const body = raw.slice(2, -2);
  const jsdoc = body.startsWith("*");
  return body.split(/\r?\n/).map((line) => {
    const trimmed = line.trim();
    return jsdoc && trimmed.startsWith("*") ? trimmed.slice(1).trimStart() : trimmed;
  });
}
