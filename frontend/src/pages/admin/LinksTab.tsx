import { useState } from "preact/hooks";
import { client, errorMessage } from "../../api";
import type { moderation } from "../../client.gen";
import { Field } from "../../components/Field";
import { SelectField } from "../../components/SelectField";
import { formatTime } from "../../format";
import { adminHref, href } from "../../router";
import { Cards, counted, ListFooter, StatusBadge } from "./Shared";
import { usePaged } from "./paged";

const statuses = { all: "All", active: "Active", inactive: "Inactive", disabled: "Disabled", deleted: "Deleted" } as const;
const sorts = { newest: "Newest first", clicks: "Most clicked", reports: "Most reported" } as const;

interface Filter {
  q: string;
  host: string;
  creator: string;
  status: keyof typeof statuses;
  sort: keyof typeof sorts;
  reported: boolean;
}

/** Every link of the instance: searched, filtered by host, creator and reports, disabled and enabled. */
export function LinksTab({ onNotice, creator = "", host = "" }: { onNotice: (text: string) => void; creator?: string; host?: string }) {
  const [form, setForm] = useState({ q: "", host, creator });
  const [filter, setFilter] = useState<Filter>({ q: "", host, creator, status: "all", sort: "newest", reported: false });
  const list = usePaged(async (cursor) => {
    const page = await client.moderation.listAllLinks({
      q: filter.q || undefined,
      host: filter.host || undefined,
      creator: filter.creator || undefined,
      status: filter.status,
      sort: filter.sort,
      reported: filter.reported || undefined,
      cursor,
    });
    return { items: page.links, nextCursor: page.nextCursor };
  }, JSON.stringify(filter));

  const toggle = async (link: moderation.LinkForAdmin) => {
    try {
      const enabling = link.status === "disabled";
      if (enabling) await client.moderation.enableLink(link.code, {});
      else await client.moderation.disableLink(link.code, {});
      onNotice(`${enabling ? "Enabled" : "Disabled"} ${link.code}.`);
      list.reload();
    } catch (err) {
      onNotice(errorMessage(err));
    }
  };
  const input = (field: keyof typeof form) => (e: { currentTarget: HTMLInputElement }) => setForm((f) => ({ ...f, [field]: e.currentTarget.value }));

  return (
    <section aria-labelledby="links-heading">
      <h2 id="links-heading">Links</h2>
      <form
        class="link-filters"
        role="search"
        onSubmit={(e) => (e.preventDefault(), setFilter((f) => ({ ...f, q: form.q.trim(), host: form.host.trim(), creator: form.creator.trim() })))}
      >
        <Field id="link-search" label="Code, URL or title" type="search" value={form.q} onInput={input("q")} />
        <Field id="link-host" label="Target host" value={form.host} onInput={input("host")} placeholder="example.com" />
        <Field id="link-creator" label="Creator (email or id)" value={form.creator} onInput={input("creator")} />
        <SelectField id="link-status" label="Status" value={filter.status} options={statuses} onChange={(status) => setFilter((f) => ({ ...f, status }))} />
        <SelectField id="link-sort" label="Sort" value={filter.sort} options={sorts} onChange={(sort) => setFilter((f) => ({ ...f, sort }))} />
        <label class="check">
          <input type="checkbox" checked={filter.reported} onChange={(e) => setFilter((f) => ({ ...f, reported: e.currentTarget.checked }))} />
          Reported only
        </label>
        <button type="submit">Search</button>
      </form>
      <Cards label="Links">
        {list.items.map((link) => (
          <li key={link.code}>
            <div class="link-head">
              <a class="link-title" href={href.stats(link.code)}>
                {link.code}
              </a>
              <StatusBadge status={link.status} />
              {link.disabledReason && <span class="meta">({link.disabledReason})</span>}
              {link.openReports > 0 && <span class="status status-disabled">{counted(link.openReports, "open report")}</span>}
            </div>
            {link.title && <span>{link.title}</span>}
            <span class="original">{link.originalUrl}</span>
            <span class="meta">
              {counted(link.clicks, "click")} · {formatTime(link.createdAt)} ·{" "}
              {link.creatorEmail ? <a href={adminHref("links", { creator: link.creatorEmail })}>{link.creatorEmail}</a> : link.createdBy ? "deleted account" : "anonymous"}
            </span>
            {link.status !== "deleted" && (
              <div class="actions">
                <button type="button" onClick={() => toggle(link)} aria-label={`${link.status === "disabled" ? "Enable" : "Disable"} ${link.code}`}>
                  {link.status === "disabled" ? "Enable" : "Disable"}
                </button>
              </div>
            )}
          </li>
        ))}
      </Cards>
      <ListFooter {...list} count={list.items.length} empty="No links match." />
    </section>
  );
}
