import type { links } from "../client.gen";
import { href } from "../router";
import { ToggleGroup } from "./ToggleGroup";

export type TagsMode = "any" | "all";
const modes: Record<TagsMode, string> = { any: "Any", all: "All" };

/**
 * The workspace's tags as buttons that filter the list (pressed: in the filter), each with
 * its number of links and a link to its clicks; with two or more chosen, whether a link
 * needs any or all of them.
 */
export function TagFilter({
  workspaceId,
  tags,
  chosen,
  mode,
  onChange,
}: {
  workspaceId: string;
  tags: links.Tag[];
  chosen: string[];
  mode: TagsMode;
  onChange: (chosen: string[], mode: TagsMode) => void;
}) {
  if (tags.length === 0) return null;
  const toggle = (name: string) => onChange(chosen.includes(name) ? chosen.filter((n) => n !== name) : [...chosen, name], mode);
  return (
    <div class="tag-filter" role="group" aria-label="Filter by tags">
      <span class="tag-filter-label">Tags</span>
      <ul class="tag-filter-list">
        {tags.map((tag) => (
          <li key={tag.id}>
            <button type="button" class="tag-toggle" aria-pressed={chosen.includes(tag.name)} onClick={() => toggle(tag.name)}>
              {tag.name} <span class="tag-count">{tag.links}</span>
            </button>
            <a href={href.tagStats(workspaceId, tag.id)} class="tag-stats" aria-label={`Clicks of tag ${tag.name}`}>
              clicks
            </a>
          </li>
        ))}
      </ul>
      {chosen.length > 1 && <ToggleGroup label="Links with" value={mode} options={modes} onChange={(m) => onChange(chosen, m)} />}
    </div>
  );
}
