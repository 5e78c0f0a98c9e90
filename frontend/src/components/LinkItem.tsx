import { useRef, useState } from "preact/hooks";
import { formatTime } from "../format";
import { client } from "../api";
import type { links } from "../client.gen";
import { href } from "../router";
import { ConfirmButton } from "./ConfirmButton";
import { CopyButton } from "./CopyButton";
import { EditLinkForm } from "./EditLinkForm";
import { QrOptions } from "./QrOptions";
import { Sparkline } from "./Sparkline";
import { TagChips } from "./TagChips";

const statusText: Record<links.Link["status"], string> = {
  active: "Active",
  scheduled: "Not started yet",
  expired: "Expired",
  exhausted: "Click limit reached",
  deleted: "Deleted",
  disabled: "Disabled",
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

interface LinkItemProps {
  link: links.ListedLink;
  /** A viewer's: no Edit or Delete, which the API would refuse. */
  readOnly?: boolean;
  onChanged: (link: links.Link) => void;
  onDeleted: (link: links.Link) => void;
  /** Whether it is among the links chosen for tagging. */
  selected?: boolean;
  /** Choosing it for tagging; absent, it has no checkbox (a viewer tags nothing). */
  onSelect?: (selected: boolean) => void;
}

/** One of my links: what it is, how it stands, and what I can do with it. */
export function LinkItem({ link, readOnly = false, onChanged, onDeleted, selected = false, onSelect }: LinkItemProps) {
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  // Back where the form was opened, as a closed dialog returns focus to its opener.
  const stopEditing = () => {
    setEditing(false);
    editButton.current?.focus();
  };
  const remove = async () => {
    await client.links.deleteLink(link.code);
    onDeleted(link);
  };
  return (
    <li>
      <span class="link-head">
        {onSelect && (
          <input type="checkbox" class="select-link" aria-label={`Select ${link.code}`} checked={selected} onChange={(e) => onSelect(e.currentTarget.checked)} />
        )}
        <a href={link.shortUrl}>{link.shortUrl}</a>
        <span class={`status status-${link.status}`}>{statusText[link.status]}</span>
        <Sparkline counts={link.recentClicks} />
      </span>
      {link.title && <span class="link-title">{link.title}</span>}
      <span class="original">{link.originalUrl}</span>
      <TagChips tags={link.tags} />
      <span class="meta">
        {plural(link.clicks, "click", "clicks")}
        {link.maxClicks !== undefined && ` of at most ${link.maxClicks}`} · created <time dateTime={link.createdAt}>{formatTime(link.createdAt)}</time>
        {link.expiresAt && (
          <>
            {" "}
            · {link.status === "expired" ? "expired" : "expires"} <time dateTime={link.expiresAt}>{formatTime(link.expiresAt)}</time>
          </>
        )}
        {link.hasPassword && " · password"}
      </span>
      <div class="link-actions">
        <CopyButton text={link.shortUrl} name={`Copy ${link.shortUrl}`} />
        <a href={href.stats(link.code)} aria-label={`Stats of ${link.code}`}>
          stats
        </a>
        {!readOnly && link.status !== "disabled" && (
          <button type="button" ref={editButton} aria-label={`Edit ${link.code}`} aria-expanded={editing} onClick={() => setEditing(!editing)}>
            Edit
          </button>
        )}
        {!readOnly && (
          <ConfirmButton
            label="Delete"
            name={`Delete ${link.code}`}
            question={`Delete ${link.shortUrl}? It stops working at once, and its code is never given out again.`}
            confirmLabel="Delete"
            onConfirm={remove}
          />
        )}
      </div>
      {link.status === "disabled" && <span class="meta">A moderator disabled this link: it cannot be changed.</span>}
      {link.status !== "deleted" && link.status !== "disabled" && (
        <details class="qr-details">
          <summary>QR code</summary>
          <QrOptions code={link.code} shortUrl={link.shortUrl} />
        </details>
      )}
      {editing && (
        <EditLinkForm
          link={link}
          onCancel={stopEditing}
          onSaved={(saved) => {
            stopEditing();
            onChanged(saved);
          }}
        />
      )}
    </li>
  );
}
