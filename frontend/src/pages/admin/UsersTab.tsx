import { useState } from "preact/hooks";
import { client, errorMessage } from "../../api";
import type { moderation } from "../../client.gen";
import { Field } from "../../components/Field";
import { SelectField } from "../../components/SelectField";
import { formatTime } from "../../format";
import { adminHref } from "../../router";
import { Cards, counted, ListFooter, StatusBadge } from "./Shared";
import { usePaged } from "./paged";

const statuses = { all: "All", active: "Active", disabled: "Disabled" } as const;

/** Every account: searched by email or name, disabled and enabled. */
export function UsersTab({ onNotice }: { onNotice: (text: string) => void }) {
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<{ q: string; status: keyof typeof statuses }>({ q: "", status: "all" });
  const list = usePaged(async (cursor) => {
    const page = await client.moderation.listAccounts({ q: filter.q || undefined, status: filter.status, cursor });
    return { items: page.users, nextCursor: page.nextCursor };
  }, JSON.stringify(filter));

  const toggle = async (user: moderation.AccountForAdmin) => {
    try {
      if (user.disabledAt) await client.moderation.enableAccount(user.id, {});
      else await client.moderation.disableAccount(user.id, {});
      onNotice(`${user.disabledAt ? "Enabled" : "Disabled"} ${user.email}.`);
      list.reload();
    } catch (err) {
      onNotice(errorMessage(err));
    }
  };

  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading">Users</h2>
      <form class="link-filters" role="search" onSubmit={(e) => (e.preventDefault(), setFilter((f) => ({ ...f, q: search.trim() })))}>
        <Field id="user-search" label="Email or name" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        <SelectField id="user-status" label="Status" value={filter.status} options={statuses} onChange={(status) => setFilter((f) => ({ ...f, status }))} />
        <button type="submit">Search</button>
      </form>
      <Cards label="Users">
        {list.items.map((user) => (
          <li key={user.id}>
            <div class="link-head">
              <span class="link-title">{user.email}</span>
              <StatusBadge status={user.disabledAt ? "disabled" : "active"} />
              {user.admin && <span class="status">admin</span>}
            </div>
            <span>{user.name}</span>
            <span class="meta">
              Signed up {formatTime(user.createdAt)} · <a href={adminHref("links", { creator: user.email })}>{user.links >= 1000 ? "1000+ links" : counted(user.links, "link")}</a>
            </span>
            <div class="actions">
              <button type="button" onClick={() => toggle(user)} aria-label={`${user.disabledAt ? "Enable" : "Disable"} ${user.email}`}>
                {user.disabledAt ? "Enable" : "Disable"}
              </button>
            </div>
          </li>
        ))}
      </Cards>
      <ListFooter {...list} count={list.items.length} empty="No accounts match." />
    </section>
  );
}
