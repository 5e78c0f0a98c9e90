import { useEffect, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import type { workspaces } from "../client.gen";

export type Workspace = workspaces.Workspace;

const key = "url-shortener.workspace";
const listeners = new Set<() => void>();

/** The workspace the links and shorten pages work in, kept across pages and reloads. */
export function chooseWorkspace(id: string): void {
  localStorage.setItem(key, id);
  listeners.forEach((notify) => notify());
}

/** The stored choice when the caller still belongs to it, else their personal workspace (listed first). */
function chosenOf(list: Workspace[]): Workspace | null {
  const stored = localStorage.getItem(key);
  return list.find((w) => w.id === stored) ?? list.find((w) => w.personal) ?? list[0] ?? null;
}

export interface WorkspaceChoice {
  /** The caller's workspaces; null while loading. */
  workspaces: Workspace[] | null;
  /** The chosen one; null until the list is loaded. */
  chosen: Workspace | null;
  error: string | null;
}

/**
 * The caller's workspaces, read afresh on every page load (a removal shows at once), and
 * the one chosen among them. A removed member's stored choice falls back to the personal one.
 * Signed out (`signedIn` false): nothing is asked and nothing chosen.
 */
export function useWorkspaceChoice(signedIn = true): WorkspaceChoice {
  const [list, setList] = useState<Workspace[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [, setVersion] = useState(0);
  useEffect(() => {
    if (!signedIn) return setList(null);
    let live = true;
    client.workspaces.listWorkspaces().then(
      (res) => live && setList(res.workspaces),
      (err: unknown) => live && setError(errorMessage(err)),
    );
    const update = () => setVersion((v) => v + 1);
    listeners.add(update);
    return () => {
      live = false;
      listeners.delete(update);
    };
  }, [signedIn]);
  return { workspaces: list, chosen: list ? chosenOf(list) : null, error };
}

/** A workspace's name as a list shows it: the personal one says so, unless its name does. */
export function workspaceLabel(w: Workspace): string {
  return w.personal && !/personal/i.test(w.name) ? `${w.name} (personal)` : w.name;
}
