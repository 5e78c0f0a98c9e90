import { useEffect, useRef, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import type { transfers } from "../client.gen";
import { Alert } from "../components/Alert";
import { ImportProgress } from "../components/ImportProgress";
import { SelectField } from "../components/SelectField";
import { WorkspacePicker } from "../components/WorkspacePicker";
import { formatTime } from "../format";
import { saveDownload } from "../transfers";
import { useWorkspaceChoice } from "../workspaces/chosen";
import { mayDo } from "../workspaces/roles";

const formats: Record<transfers.ImportFormat, string> = {
  csv: "CSV (this site's template or export)",
  json: "JSON (this site's export)",
  kutt: "Kutt (its API's list of links, JSON)",
  shlink: "Shlink (its web client's CSV export)",
  yourls: "YOURLS (its links table as CSV)",
  bitly: "Bitly (its API's list of links, JSON)",
};


/** Import a file into the chosen workspace and follow its job; export the workspace's links. */
export function TransfersPage() {
  const choice = useWorkspaceChoice();
  const workspace = choice.chosen;
  const mayImport = workspace ? mayDo(workspace.role, "write") : false;
  const [format, setFormat] = useState<transfers.ImportFormat>("csv");
  const [keepAliases, setKeepAliases] = useState(true);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [recent, setRecent] = useState<transfers.ImportJob[]>([]);
  const [followed, setFollowed] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    setFollowed(null);
    setRecent([]);
    if (!workspace) return;
    client.transfers.listImports(workspace.id, { limit: 10 }).then(
      (res) => setRecent(res.imports),
      (err: unknown) => setError(errorMessage(err)),
    );
  }, [workspace?.id]);

  const upload = async (e: Event) => {
    e.preventDefault();
    if (!workspace || !file) return setError("Choose a file to import.");
    setBusy(true);
    setError(null);
    try {
      const query = { format, keepAliases: String(keepAliases), fileName: file.name };
      const res = await client.transfers.uploadImport("POST", workspace.id, file, { query });
      const job = (await res.json()) as transfers.ImportJob;
      setRecent((shown) => [job, ...shown.filter((j) => j.id !== job.id)].slice(0, 10));
      setFollowed(job.id);
      setFile(null);
      if (fileInput.current) fileInput.current.value = "";
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const exportAs = async (kind: "csv" | "json") => {
    if (!workspace) return;
    setError(null);
    try {
      const res = await client.transfers.exportLinks("GET", workspace.id, undefined, { query: { format: kind } });
      await saveDownload(res, `links.${kind}`);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  const template = async () => {
    if (!workspace) return;
    try {
      await saveDownload(await client.transfers.importTemplate("GET", workspace.id), "links-import-template.csv");
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>Import and export</h1>
      <WorkspacePicker choice={choice} />
      {error && <Alert>{error}</Alert>}
      <section class="transfer" aria-labelledby="import-heading">
        <h2 id="import-heading">Import links</h2>
        {!mayImport && workspace && <p>A viewer reads this workspace's links but cannot import into it.</p>}
        {mayImport && (
          <form onSubmit={(e) => void upload(e)}>
            <p>
              A CSV with a <code>url</code> column (and, if you like, alias, title, description, tags, expiresAt, maxClicks, createdAt,
              clicks, password, and the redirect options, preview, domain and rules): start from{" "}
              <button type="button" class="link-button" onClick={() => void template()}>
                the template
              </button>
              . Or another shortener's export. Each row is checked on its own; bad rows are listed with their line.
            </p>
            <div class="field">
              <label for="import-file">File</label>
              <input id="import-file" name="file" type="file" ref={fileInput} accept=".csv,.json,text/csv,application/json" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
            </div>
            <SelectField id="import-format" label="Format" value={format} options={formats} onChange={setFormat} />
            <label class="check">
              <input id="keep-aliases" type="checkbox" checked={keepAliases} onChange={(e) => setKeepAliases(e.currentTarget.checked)} /> Keep the
              file's codes (a code already taken fails its row)
            </label>
            <div class="actions">
              <button type="submit" disabled={busy}>
                {busy ? "Uploading…" : "Import"}
              </button>
            </div>
          </form>
        )}
        {followed && workspace && <ImportProgress key={followed} workspaceId={workspace.id} importId={followed} onChange={(job) => setRecent((shown) => shown.map((j) => (j.id === job.id ? job : j)))} />}
        {recent.length > 0 && (
          <>
            <h3>Recent imports</h3>
            <ul class="imports" aria-label="Recent imports">
              {recent.map((job) => (
                <li key={job.id}>
                  <button type="button" class="link-button" onClick={() => setFollowed(job.id)} aria-pressed={followed === job.id}>
                    {job.fileName ?? job.format}
                  </button>{" "}
                  <span class="meta-text">
                    {formatTime(job.createdAt)} · {job.status} · {job.imported} imported, {job.failed} failed
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      <section class="transfer" aria-labelledby="export-heading">
        <h2 id="export-heading">Export links</h2>
        <p>
          Every link of this workspace with its tags, options and clicks. CSV says only whether a link has a password; JSON carries its
          stored hash when you are the workspace's owner or an admin, so that importing it elsewhere keeps it protected.
        </p>
        <div class="actions">
          <button type="button" onClick={() => void exportAs("csv")} disabled={!workspace}>
            Export CSV
          </button>
          <button type="button" onClick={() => void exportAs("json")} disabled={!workspace}>
            Export JSON
          </button>
        </div>
      </section>
    </>
  );
}
