import { useState } from "preact/hooks";

/** Copies `text`; the Clipboard API needs a secure context (https or localhost), so plain http on a LAN uses the old way. */
async function copyText(text: string): Promise<boolean> {
  if (navigator.clipboard && isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Denied (no permission, not focused): try the fallback.
    }
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  return ok;
}

/** `name`: the button's accessible name where several "Copy" buttons share a page ("Copy https://…/abc"). */
export function CopyButton({ text, name }: { text: string; name?: string }) {
  const [status, setStatus] = useState("");
  const copy = async () => setStatus((await copyText(text)) ? "Copied" : "Press Ctrl+C to copy");
  return (
    <span class="copy">
      <button type="button" aria-label={name} onClick={copy}>
        Copy
      </button>
      {/* Polite: announced after the button's own name, without interrupting. */}
      <span class="copy-status" role="status">
        {status}
      </span>
    </span>
  );
}
