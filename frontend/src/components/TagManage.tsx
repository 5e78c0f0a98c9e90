import { useState } from "preact/hooks";
import { client } from "../api";
import type { links } from "../client.gen";
import { useApiForm } from "../form";
import { Alert } from "./Alert";
import { ConfirmButton } from "./ConfirmButton";
import { Field } from "./Field";

const labels = { name: "Name" } as const;

/** Renaming a tag (on every link that has it) and deleting it (taking it off them), for those who may change the workspace's links. */
export function TagManage({
  workspaceId,
  tag,
  onRenamed,
  onDeleted,
}: {
  workspaceId: string;
  tag: links.Tag;
  onRenamed: (tag: links.Tag) => void;
  onDeleted: () => void;
}) {
  const [name, setName] = useState(tag.name);
  const { busy, formError, errorOf, run } = useApiForm(labels, "name");
  const rename = (event: Event) => {
    event.preventDefault();
    if (name.trim() === tag.name) return;
    void run(async () => onRenamed(await client.links.renameWorkspaceTag(workspaceId, tag.id, { name })));
  };
  return (
    <section class="tag-manage" aria-labelledby="tag-manage-heading">
      <h2 id="tag-manage-heading">Manage the tag</h2>
      <form class="tag-rename" onSubmit={rename} noValidate>
        <Field id="tag-name" label="Name" maxLength={50} value={name} onInput={(e) => setName(e.currentTarget.value)} error={errorOf("name")} />
        <button type="submit" disabled={busy}>
          {busy ? "Renaming…" : "Rename"}
        </button>
      </form>
      {formError && <Alert>{formError}</Alert>}
      <div class="actions">
        <ConfirmButton
          label="Delete tag"
          name={`Delete tag ${tag.name}`}
          question={`Delete the tag ${tag.name}? It is taken off its ${tag.links} links; the links stay.`}
          confirmLabel="Delete"
          onConfirm={async () => {
            await client.links.deleteWorkspaceTag(workspaceId, tag.id);
            onDeleted();
          }}
        />
      </div>
    </section>
  );
}
