import { useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import type { links } from "../client.gen";
import { Alert } from "./Alert";

/**
 * What to do with the selected links: put a tag on all of them, or take it off, in one
 * request (POST /links/tags); a name the workspace has no tag by becomes one.
 */
export function TagBulkBar({
  workspaceId,
  codes,
  tags,
  onDone,
  onClear,
}: {
  workspaceId: string;
  codes: string[];
  tags: links.Tag[];
  onDone: (message: string) => void;
  onClear: () => void;
}) {
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (codes.length === 0) return null;

  const apply = async (action: "add" | "remove") => {
    const tag = name.trim();
    if (tag === "") return setError("Type a tag's name first.");
    setBusy(true);
    setError(null);
    try {
      const done = await client.links.tagLinksInBulk({ workspaceId, codes, [action]: [tag] });
      const count = `${done.updated} ${done.updated === 1 ? "link" : "links"}`;
      onDone(action === "add" ? `Tagged ${count} with ${tag}.` : `Took ${tag} off ${count}.`);
      setName("");
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="tag-bulk" aria-label="Tag the selected links" onSubmit={(e) => (e.preventDefault(), void apply("add"))}>
      <span class="tag-bulk-count">{codes.length} selected</span>
      <div class="field">
        <label for="bulk-tag">Tag</label>
        <input id="bulk-tag" name="bulk-tag" list="bulk-tag-names" maxLength={50} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <datalist id="bulk-tag-names">
          {tags.map((t) => (
            <option key={t.id} value={t.name} />
          ))}
        </datalist>
      </div>
      <button type="submit" disabled={busy}>
        Add to selected
      </button>
      <button type="button" disabled={busy} onClick={() => void apply("remove")}>
        Remove from selected
      </button>
      <button type="button" class="link-button" onClick={onClear}>
        Clear selection
      </button>
      {error && <Alert>{error}</Alert>}
    </form>
  );
}
