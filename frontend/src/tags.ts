import { useEffect, useState } from "preact/hooks";
import { client } from "./api";
import type { links } from "./client.gen";

/** A workspace's tags, read again by `reload` (after tagging links). */
export function useWorkspaceTags(workspaceId: string | undefined): { tags: links.Tag[]; reload: () => void } {
  const [tags, setTags] = useState<links.Tag[]>([]);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (workspaceId === undefined) return;
    let current = true;
    client.links.listTags(workspaceId).then(
      (answer) => current && setTags(answer.tags),
      () => current && setTags([]),
    );
    return () => {
      current = false;
    };
  }, [workspaceId, version]);
  return { tags, reload: () => setVersion((v) => v + 1) };
}

/** "a, b ,, c" → ["a", "b", "c"]: how a person types a list of tags. */
export function tagNames(text: string): string[] {
  return text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
}
