import { useState } from "preact/hooks";
import type { DatabasesState, QueryResult } from "../../../internal/dashboard/api.ts";
import { api } from "../api.ts";
import { ErrorBox } from "../components/ErrorBox.tsx";
import { useAction } from "../components/useAction.ts";
import { count, duration } from "../format.ts";

type Limits = Extract<DatabasesState["console"], { available: true }>["limits"];

/** A read-only SQL console on one database: the server runs each query as a read-only role of its own, through a cursor, and rolls it back. */
export function SqlConsole({ database, sql, onSql, limits }: { database: string; sql: string; onSql(sql: string): void; limits: Limits }) {
  const mib = `${limits.bytes / 1024 / 1024} MiB`;
  const query = useAction((text: string) => api<QueryResult>(`/api/databases/${encodeURIComponent(database)}/query`, { sql: text }));
  const [ran, setRan] = useState("");
  const run = () => {
    setRan(sql);
    void query.run(sql);
  };
  return (
    <section class="card sql-console" aria-labelledby="sql-h" data-testid="sql-console">
      <h2 id="sql-h">SQL console</h2>
      <p class="muted small">
        One query (SELECT, WITH, VALUES, TABLE) at a time, as a read-only role that can read every table; at most {count(limits.rows)} rows,{" "}
        {mib}, {limits.statementTimeoutMs / 1000} s. Ctrl+Enter runs it.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <textarea
          class="mono"
          rows={5}
          aria-label="SQL query"
          value={sql}
          spellcheck={false}
          onInput={(e) => onSql(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              run();
            }
          }}
        />
        <div class="row">
          <button type="submit" disabled={query.running || sql.trim() === ""}>
            {query.running ? "Running…" : "Run"}
          </button>
          {query.result && (
            <span class="muted small" data-testid="sql-summary">
              {count(query.result.rowCount)} {query.result.rowCount === 1 ? "row" : "rows"} in {duration(query.result.durationMs)}
              {query.result.truncatedBy === "rows" && `; the first ${count(query.result.rows.length)} shown`}
              {query.result.truncatedBy === "bytes" && `; cut at ${mib} read, the first ${count(query.result.rows.length)} shown`}
            </span>
          )}
        </div>
      </form>
      <ErrorBox error={query.error} title="The query was refused" />
      {query.result && <ResultGrid key={ran} result={query.result} />}
    </section>
  );
}

function cell(value: unknown): string {
  if (value === null) return "NULL";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function ResultGrid({ result }: { result: QueryResult }) {
  if (result.columns.length === 0) return <p class="muted">The statement returned no columns.</p>;
  return (
    <div class="result-wrap">
      <table class="grid results" data-testid="sql-results">
        <thead>
          <tr>
            {result.columns.map((c, i) => (
              <th key={i}>
                {c.name} <span class="muted type">{c.type}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {result.rows.map((row, i) => (
            <tr key={i}>
              {row.map((value, j) => (
                <td key={j} class={`mono${value === null ? " null" : typeof value === "number" ? " num" : ""}`}>
                  {cell(value)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
