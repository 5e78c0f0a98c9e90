import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";

/** The page's heading, the document's title, and the page's own buttons on the right. */
export function PageHeader({ title, sub, children }: { title: string; sub?: ComponentChildren; children?: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Encore dashboard`;
  }, [title]);
  return (
    <div class="page-header">
      <div>
        <h1 tabIndex={-1}>{title}</h1>
        {sub && <div class="sub">{sub}</div>}
      </div>
      {children && <div class="actions">{children}</div>}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return <p class="muted" role="status">Loading {what}…</p>;
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}
