import { useState } from "preact/hooks";

export interface Copyable {
  readonly label: string;
  /** What to copy; null when there is nothing to copy, with `note` saying why. */
  make(): { text: string | null; note?: string };
}

/**
 * Buttons that copy a text to the clipboard and show it in a box as well: the
 * clipboard API needs a secure context and permission, and the text is worth reading.
 */
export function CopyButtons({ items }: { items: readonly Copyable[] }) {
  const [shown, setShown] = useState<{ label: string; text: string | null; note: string } | null>(null);

  async function copy(item: Copyable) {
    const { text, note = "" } = item.make();
    if (text === null) return setShown({ label: item.label, text, note });
    setShown({ label: item.label, text, note });
    try {
      await navigator.clipboard.writeText(text);
      setShown({ label: item.label, text, note: note || "Copied to the clipboard." });
    } catch {
      setShown({ label: item.label, text, note: note || "The clipboard is not available here: select the text below." });
    }
  }

  return (
    <div class="copy">
      <div class="row">
        {items.map((item) => (
          <button type="button" class="secondary" key={item.label} onClick={() => void copy(item)}>
            {item.label}
          </button>
        ))}
      </div>
      {shown && (
        <div class="copied" data-testid="copied">
          <div class="muted small">
            {shown.label}: {shown.note}
          </div>
          {shown.text !== null && <pre class="code">{shown.text}</pre>}
        </div>
      )}
    </div>
  );
}
