import { roleNames } from "../workspaces/roles";
import { chooseWorkspace, workspaceLabel, type WorkspaceChoice } from "../workspaces/chosen";
import { Alert } from "./Alert";

/**
 * Which workspace the page works in: a select of the caller's workspaces with their role
 * in each. Nothing while they load.
 */
export function WorkspacePicker({ choice }: { choice: WorkspaceChoice }) {
  const { workspaces, chosen, error } = choice;
  if (error) return <Alert>{error}</Alert>;
  if (!workspaces || !chosen) return null;
  return (
    <div class="field workspace-picker">
      <label for="workspace">Workspace</label>
      <select id="workspace" name="workspace" value={chosen.id} onChange={(e) => chooseWorkspace(e.currentTarget.value)}>
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {workspaceLabel(w)} · {roleNames[w.role]}
          </option>
        ))}
      </select>
    </div>
  );
}
