import { useEffect, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import type { transfers } from "../client.gen";
import { Alert } from "./Alert";

/** How often a running import is asked for its progress. */
const pollMs = 700;

/** One import's progress, asked for until it ends, and its refused rows a page at a time. */
export function ImportProgress({ workspaceId, importId, onChange }: { workspaceId: string; importId: string; onChange: (job: transfers.ImportJob) => void }) {
  const [progress, setProgress] = useState<transfers.ImportProgress | null>(null);
  const [errors, setErrors] = useState<transfers.RowError[]>([]);
  const [more, setMore] = useState<number | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let live = true;
    const poll = async () => {
      try {
        const job = await client.transfers.getImport(workspaceId, importId, { errorsLimit: 50 });
        if (!live) return;
        setProgress(job);
        setErrors(job.errors);
        setMore(job.nextErrorsAfter);
        onChange(job);
        if (job.status !== "done" && job.status !== "failed") timer = setTimeout(() => void poll(), pollMs);
      } catch (err) {
        if (live) setError(errorMessage(err));
      }
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [workspaceId, importId]);

  const loadMore = async () => {
    try {
      const page = await client.transfers.getImport(workspaceId, importId, { errorsAfter: more, errorsLimit: 50 });
      setErrors((shown) => [...shown, ...page.errors]);
      setMore(page.nextErrorsAfter);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  if (error) return <Alert>{error}</Alert>;
  if (!progress) return null;
  const total = Math.max(progress.totalRows, 1);
  return (
    <div class="import-progress" data-testid="import-progress">
      <label for="import-bar">
        {progress.fileName ?? progress.format}: {statusText(progress)}
      </label>
      <progress id="import-bar" max={total} value={progress.status === "done" ? total : progress.rowsRead} />
      <p role="status">
        {progress.rowsRead} of {progress.totalRows} rows read · {progress.imported} imported · {progress.failed} failed
      </p>
      {progress.error && <Alert>{progress.error}</Alert>}
      {errors.length > 0 && (
        <div class="table-scroll">
        <table class="import-errors">
          <caption>Rows not imported</caption>
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {errors.map((e) => (
              <tr key={e.line}>
                <td>{e.line}</td>
                <td>{e.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
      {more !== undefined && (
        <div class="actions">
          <button type="button" onClick={() => void loadMore()}>
            More errors
          </button>
        </div>
      )}
    </div>
  );
}

function statusText(job: transfers.ImportJob): string {
  switch (job.status) {
    case "uploading":
      return "uploading";
    case "queued":
      return "waiting to start";
    case "running":
      return "importing";
    case "done":
      return "done";
    case "failed":
      return "failed";
  }
}
