import { useEffect, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import type { links } from "../client.gen";
import { Alert } from "../components/Alert";
import { ClickAnalytics } from "../components/ClickAnalytics";
import { TagManage } from "../components/TagManage";
import { formatTime } from "../format";
import { href, navigate } from "../router";
import { mayDo, type Role } from "../workspaces/roles";

/** A tag's clicks: the sum of every link that has it (deleted ones too), as a link's stats page shows one link's. */
export function TagStatsPage({ workspaceId, tagId }: { workspaceId: string; tagId: number }) {
  const [tag, setTag] = useState<links.Tag | null>(null);
  // The caller's role: a viewer reads a tag's clicks but is not offered renaming or deleting it.
  const [role, setRole] = useState<Role | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setTag(null);
    setRole(null);
    setError(null);
    Promise.all([client.links.listTags(workspaceId), client.workspaces.getWorkspace(workspaceId)]).then(
      ([{ tags }, workspace]) => {
        const found = tags.find((t) => t.id === tagId);
        setRole(workspace.role);
        if (found) setTag(found);
        else setError("No such tag in this workspace.");
      },
      (err: unknown) => setError(errorMessage(err)),
    );
  }, [workspaceId, tagId]);

  return (
    <>
      <h1 tabIndex={-1}>{tag ? `Tag ${tag.name}` : "Tag"}</h1>
      {error && <Alert>{error}</Alert>}
      {!tag && !error && <p aria-live="polite">Loading…</p>}
      {tag && (
        <>
          <dl class="facts">
            <dt>Links</dt>
            <dd class="tag-links">{tag.links}</dd>
            <dt>Created</dt>
            <dd>
              <time dateTime={tag.createdAt}>{formatTime(tag.createdAt)}</time>
            </dd>
          </dl>
          <p class="hint">
            Clicks of every link with this tag, deleted links included; "All time" counts from when the tag was made. <a href={href.links}>Back to my links</a>
          </p>
          <ClickAnalytics
            source={`${workspaceId}/${tagId}`}
            createdAt={tag.createdAt}
            load={(query) => client.analytics.tagAnalytics(workspaceId, tagId, query)}
          />
          {role && mayDo(role, "write") && <TagManage workspaceId={workspaceId} tag={tag} onRenamed={setTag} onDeleted={() => navigate(href.links)} />}
        </>
      )}
    </>
  );
}
