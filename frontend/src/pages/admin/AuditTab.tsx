import { client } from "../../api";
import { formatTime } from "../../format";
import { Cards, ListFooter } from "./Shared";
import { usePaged } from "./paged";

/** The audit log, newest first. */
export function AuditTab() {
  const list = usePaged(async (cursor) => {
    const page = await client.moderation.listActions({ cursor });
    return { items: page.actions, nextCursor: page.nextCursor };
  }, "");
  return (
    <section aria-labelledby="audit-heading">
      <h2 id="audit-heading">Audit log</h2>
      <Cards label="Actions">
        {list.items.map((action) => (
          <li key={action.id}>
            <div class="link-head">
              <span class="link-title">{action.action.replaceAll("_", " ")}</span>
              <span class="original">{action.target}</span>
            </div>
            {action.reason && <span>{action.reason}</span>}
            <span class="meta">
              {action.actorEmail} · {formatTime(action.at)}
            </span>
          </li>
        ))}
      </Cards>
      <ListFooter {...list} count={list.items.length} empty="No actions yet." />
    </section>
  );
}
