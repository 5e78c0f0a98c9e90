import { useEffect, useRef, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import type { links } from "../client.gen";
import { Alert } from "../components/Alert";
import { Field } from "../components/Field";
import { LinkItem } from "../components/LinkItem";
import { SelectField } from "../components/SelectField";
import { TagBulkBar } from "../components/TagBulkBar";
import { TagFilter, type TagsMode } from "../components/TagFilter";
import { WorkspacePicker } from "../components/WorkspacePicker";
import { href } from "../router";
import { useWorkspaceTags } from "../tags";
import { useWorkspaceChoice } from "../workspaces/chosen";
import { mayDo } from "../workspaces/roles";

type Filter = Required<Pick<links.ListLinksRequest, "q" | "status" | "sort">> & { tags: string[]; tagsMode: TagsMode };
const everything: Filter = { q: "", status: "all", sort: "newest", tags: [], tagsMode: "any" };
const statuses = { all: "All", active: "Active", inactive: "Inactive" } as const;
const sorts = { newest: "Newest first", clicks: "Most clicked" } as const;

/** The signed-in user's links: searched, filtered, sorted by the API, a page at a time ("More" follows nextCursor). */
export function LinksPage() {
  const choice = useWorkspaceChoice();
  const workspaceId = choice.chosen?.id;
  const readOnly = choice.chosen ? !mayDo(choice.chosen.role, "write") : true;
  const [filter, setFilter] = useState<Filter>(everything);
  const [search, setSearch] = useState("");
  const [links, setLinks] = useState<links.ListedLink[]>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  const { tags, reload: reloadTags } = useWorkspaceTags(workspaceId);
  // Codes of the links chosen for tagging.
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // Answers can arrive out of order when the filter changes quickly: only the last request's counts.
  const latest = useRef(0);

  const load = async (applied: Filter, after?: string) => {
    const request = ++latest.current;
    setLoading(true);
    setError(null);
    try {
      const { tags: named, tagsMode, ...rest } = applied;
      const page = await client.links.listLinks({ ...rest, q: applied.q || undefined, tags: named.join(",") || undefined, tagsMode, cursor: after, workspaceId });
      if (request !== latest.current) return;
      setLinks((shown) => (after ? [...shown, ...page.links] : page.links));
      setCursor(page.nextCursor);
    } catch (err) {
      if (request === latest.current) setError(errorMessage(err));
    } finally {
      if (request === latest.current) setLoading(false);
    }
  };
  // Once the workspace is known: its links, not the personal ones first.
  useEffect(() => void (workspaceId && load(filter)), [filter, workspaceId]);
  // Another workspace has other links and other tags: nothing chosen in this one carries over.
  useEffect(() => {
    setSelected(new Set());
    setFilter((shown) => (shown.tags.length > 0 ? { ...shown, tags: [] } : shown));
  }, [workspaceId]);

  // The search box applies when submitted; the two selects at once, with the box's text as it is.
  const apply = (changes: Partial<Filter>) => {
    setNotice("");
    setFilter({ ...filter, q: search.trim(), ...changes });
  };
  const changed = (saved: links.Link) => {
    // PATCH answers the link without its recent clicks: an edit changes none of them.
    setLinks((shown) => shown.map((l) => (l.code === saved.code ? { ...saved, recentClicks: l.recentClicks } : l)));
    setNotice(`Saved ${saved.shortUrl}.`);
  };
  const deleted = (gone: links.Link) => {
    setLinks((shown) => shown.filter((l) => l.code !== gone.code));
    setNotice(`Deleted ${gone.shortUrl}.`);
    // Its buttons went with it: focus would fall to the page's end.
    heading.current?.focus();
  };
  const filtered = filter.q !== "" || filter.status !== "all" || filter.tags.length > 0;
  const select = (code: string, on: boolean) =>
    setSelected((chosen) => {
      const next = new Set(chosen);
      if (on) next.add(code);
      else next.delete(code);
      return next;
    });
  const tagged = (message: string) => {
    setNotice(message);
    setSelected(new Set());
    reloadTags();
    void load(filter);
  };

  return (
    <>
      <h1 tabIndex={-1} ref={heading}>
        {choice.chosen && !choice.chosen.personal ? `${choice.chosen.name}: links` : "My links"}
      </h1>
      <WorkspacePicker choice={choice} />
      <form role="search" class="link-filters" onSubmit={(e) => (e.preventDefault(), apply({}))}>
        <Field id="q" label="Search" type="search" placeholder="Code, URL or title" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        <SelectField id="status" label="Show" value={filter.status} options={statuses} onChange={(status) => apply({ status })} />
        <SelectField id="sort" label="Sort" value={filter.sort} options={sorts} onChange={(sort) => apply({ sort })} />
        <button type="submit">Search</button>
      </form>
      {workspaceId && (
        <TagFilter workspaceId={workspaceId} tags={tags} chosen={filter.tags} mode={filter.tagsMode} onChange={(chosen, tagsMode) => apply({ tags: chosen, tagsMode })} />
      )}
      {workspaceId && !readOnly && <TagBulkBar workspaceId={workspaceId} codes={[...selected]} tags={tags} onDone={tagged} onClear={() => setSelected(new Set())} />}
      <p role="status" class={notice ? "notice" : "status-line"}>
        {notice}
      </p>
      {error && <Alert>{error}</Alert>}
      {!loading && !error && links.length === 0 &&
        (filtered ? (
          <p>No links match.</p>
        ) : (
          <p>
            No links yet.{!readOnly && <> <a href={href.shorten}>Shorten one</a>.</>}
          </p>
        ))}
      {links.length > 0 && (
        <ul class="links" aria-busy={loading}>
          {links.map((link) => (
            <LinkItem
              key={link.code}
              link={link}
              readOnly={readOnly}
              onChanged={(saved) => (changed(saved), reloadTags())}
              onDeleted={deleted}
              selected={selected.has(link.code)}
              onSelect={readOnly ? undefined : (on) => select(link.code, on)}
            />
          ))}
        </ul>
      )}
      {cursor && (
        <button type="button" onClick={() => load(filter, cursor)} disabled={loading}>
          {loading ? "Loading…" : "More"}
        </button>
      )}
    </>
  );
}
