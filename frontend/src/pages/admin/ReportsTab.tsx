import { useState } from "preact/hooks";
import { client, errorMessage } from "../../api";
import type { link_rules } from "../../client.gen";
import { SelectField } from "../../components/SelectField";
import { formatTime } from "../../format";
import { href } from "../../router";
import { Cards, counted, ListFooter, StatusBadge } from "./Shared";
import { usePaged } from "./paged";

const queues = { open: "Open", resolved: "Resolved" } as const;

/** The queue of reported links: each dismissed, or its link disabled. */
export function ReportsTab({ onNotice }: { onNotice: (text: string) => void }) {
  const [status, setStatus] = useState<keyof typeof queues>("open");
  const list = usePaged(async (cursor) => {
    const page = await client.moderation.listReports({ status, cursor });
    return { items: page.links, nextCursor: page.nextCursor };
  }, status);

  const resolve = async (entry: link_rules.ReportedLink, how: "dismiss" | "disable") => {
    try {
      const done = how === "dismiss" ? await client.moderation.dismissReports(entry.code, {}) : await client.moderation.upholdReports(entry.code, {});
      onNotice(`${how === "dismiss" ? "Dismissed" : "Disabled the link and closed"} ${counted(done.reports, "report")} of ${entry.code}.`);
      list.setItems((shown) => shown.filter((e) => e.code !== entry.code));
    } catch (err) {
      onNotice(errorMessage(err));
    }
  };

  return (
    <section aria-labelledby="reports-heading">
      <h2 id="reports-heading">Reports</h2>
      <div class="link-filters">
        <SelectField id="report-queue" label="Queue" value={status} options={queues} onChange={setStatus} />
      </div>
      <Cards label="Reported links">
        {list.items.map((entry) => (
          <li key={`${entry.code}-${entry.resolvedAt ?? ""}`}>
            <div class="link-head">
              <a class="link-title" href={href.stats(entry.code)}>
                {entry.code}
              </a>
              <StatusBadge status={entry.status} />
              <span class="status status-disabled">{counted(entry.reports, "report")}</span>
            </div>
            <span class="original">{entry.originalUrl}</span>
            <span class="meta">
              {entry.reasons.map((r) => `${r.reason} × ${r.count}`).join(", ")} · last {formatTime(entry.lastReportedAt)}
              {entry.resolution && ` · ${entry.resolution} ${formatTime(entry.resolvedAt!)}`}
            </span>
            <ul class="report-details">
              {entry.latest.map((r) => (
                <li key={r.id}>
                  <strong>{r.reason}</strong>
                  {r.details && `: ${r.details}`}
                  {r.email && <span class="meta"> ({r.email})</span>}
                </li>
              ))}
            </ul>
            {status === "open" && (
              <div class="actions">
                <button type="button" onClick={() => resolve(entry, "dismiss")} aria-label={`Dismiss reports of ${entry.code}`}>
                  Dismiss
                </button>
                <button type="button" class="danger" onClick={() => resolve(entry, "disable")} aria-label={`Disable ${entry.code}`}>
                  Disable link
                </button>
              </div>
            )}
          </li>
        ))}
      </Cards>
      <ListFooter {...list} count={list.items.length} empty={status === "open" ? "No open reports." : "Nothing resolved yet."} />
    </section>
  );
}
