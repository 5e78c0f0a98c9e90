import type { ComponentChildren } from "preact";
import { Alert } from "../../components/Alert";

/** The end of a list: loading, its error, "More", or nothing more. */
export function ListFooter({ loading, error, hasMore, more, empty, count }: { loading: boolean; error: string | null; hasMore: boolean; more: () => void; empty: string; count: number }) {
  return (
    <>
      {error && <Alert>{error}</Alert>}
      {loading && <p aria-live="polite">Loading…</p>}
      {!loading && !error && count === 0 && <p>{empty}</p>}
      {hasMore && !loading && (
        <button type="button" onClick={more}>
          More
        </button>
      )}
    </>
  );
}

/** A list of cards: each item stacked, never wider than the page. */
export function Cards({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <ul class="cards" aria-label={label}>
      {children}
    </ul>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <span class={`status status-${status}`}>{status}</span>;
}

/** "1 link", "2 links". */
export function counted(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
