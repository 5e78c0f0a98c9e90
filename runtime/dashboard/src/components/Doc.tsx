/**
 * A doc comment as prose: source comments are hard-wrapped, so single line breaks join
 * into one paragraph; blank lines, and lines that start a list item, still break.
 */
export function Doc({ text }: { text: string | null }) {
  if (!text) return null;
  const paragraphs = text.split(/\n\s*\n/).map((p) => p.replace(/\n(?!\s*(?:[-*•]|\d+[.)])\s)/g, " "));
  return (
    <div class="doc">
      {paragraphs.map((p, i) => (
        <p key={i} style={p.includes("\n") ? { whiteSpace: "pre-line" } : undefined}>
          {p}
        </p>
      ))}
    </div>
  );
}
