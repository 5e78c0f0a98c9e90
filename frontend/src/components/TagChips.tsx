/** A link's tags, as small labels. */
export function TagChips({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul class="tag-chips" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag} class="tag-chip">
          {tag}
        </li>
      ))}
    </ul>
  );
}
