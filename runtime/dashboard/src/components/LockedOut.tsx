import { PageHeader } from "./PageHeader.tsx";

/**
 * In place of the pages once the dashboard answers 401: this page's access (its cookie) is
 * not this run's, because `run` was started again and drew a new secret. The server's own
 * page for a browser without access (internal/dashboard/access-page.ts) says the same.
 */
export function LockedOut() {
  return (
    <main class="locked-out" data-testid="locked-out">
      <PageHeader title="Open the link from your terminal" />
      <p>
        This page's access has ended: <code>encore-selfhost run</code> was started again, and each start draws a new secret. The
        dashboard opens only for the developer who started it.
      </p>
      <p>Open the link it printed last, in the terminal it runs in:</p>
      <pre>[run] development dashboard: http://{location.host}/?token=…</pre>
    </main>
  );
}
