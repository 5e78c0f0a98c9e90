import { useState } from "preact/hooks";
import type { DatabasesState } from "../../../internal/dashboard/api.ts";
import { Badge } from "../components/Badge.tsx";
import { ErrorBox } from "../components/ErrorBox.tsx";
import { Empty, Loading, PageHeader } from "../components/PageHeader.tsx";
import { bytes, count, dateTime } from "../format.ts";
import { href } from "../router.ts";
import { useApi } from "../use-api.ts";
import { SqlConsole } from "./SqlConsole.tsx";

type Database = DatabasesState["databases"][number];

/** The app's databases, one at a time: tables, migrations, and a read-only SQL console. */
export function DatabasesPage({ selected }: { selected: string | null }) {
  const { data, error, reload } = useApi<DatabasesState>("/api/databases");
  const database = data?.databases.find((d) => d.name === selected) ?? (selected === null ? data?.databases[0] : undefined);
  return (
    <>
      <PageHeader title="Databases">
        <button type="button" class="secondary" onClick={reload}>
          Refresh
        </button>
      </PageHeader>
      <ErrorBox error={error} />
      {!data && !error && <Loading what="databases" />}
      {data && data.databases.length === 0 && <Empty>The app declares no databases.</Empty>}
      {data && data.databases.length > 0 && (
        <nav class="tabs" aria-label="Databases">
          {data.databases.map((d) => (
            <a key={d.name} href={href.database(d.name)} aria-current={d === database ? "page" : undefined}>
              {d.name}
            </a>
          ))}
        </nav>
      )}
      {data && selected !== null && !database && <p>The app has no database named “{selected}”.</p>}
      {database && data && <DatabaseView key={database.name} database={database} sqlConsole={data.console} />}
    </>
  );
}

function DatabaseView({ database, sqlConsole }: { database: Database; sqlConsole: DatabasesState["console"] }) {
  const first = database.tables[0];
  const [sql, setSql] = useState(first ? `SELECT * FROM ${qualified(first)} LIMIT 20` : "SELECT now()");
  return (
    <>
      <p class="muted small">
        Declared by <a href={href.service(database.service)}>{database.service}</a>; on the server as <code>{database.physicalName}</code>.
      </p>
      <div class="two-col">
        <section class="card" aria-labelledby="tables-h">
          <h2 id="tables-h">Tables</h2>
          {database.tables.length === 0 ? (
            <p class="muted">No tables.</p>
          ) : (
            <table class="grid compact" data-testid="tables">
              <thead>
                <tr>
                  <th>Table</th>
                  <th class="num">Rows (est.)</th>
                  <th class="num">Size</th>
                </tr>
              </thead>
              <tbody>
                {database.tables.map((t) => (
                  <tr key={`${t.schema}.${t.name}`}>
                    <td class="mono">
                      <button type="button" class="link" title="Query it in the console" onClick={() => setSql(`SELECT * FROM ${qualified(t)} LIMIT 100`)}>
                        {t.schema === "public" ? t.name : `${t.schema}.${t.name}`}
                      </button>
                    </td>
                    <td class="num mono">{t.rowEstimate < 0 ? "?" : count(t.rowEstimate)}</td>
                    <td class="num mono">{bytes(t.sizeBytes)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section class="card" aria-labelledby="migrations-h">
          <h2 id="migrations-h">
            Migrations applied
          </h2>
          {database.migrations.length === 0 ? (
            <p class="muted">No migrations applied.</p>
          ) : (
            <table class="grid compact">
              <tbody>
                {database.migrations.map((m) => (
                  <tr key={m.name}>
                    <td class="mono">{m.name}</td>
                    {/* The tracking table records versions only, as Encore's does: when is often unknown. */}
                    <td class="mono muted">{m.appliedAt === null ? <Badge tone="ok">applied</Badge> : dateTime(m.appliedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </div>
      {sqlConsole.available ? (
        <SqlConsole database={database.name} sql={sql} onSql={setSql} limits={sqlConsole.limits} />
      ) : (
        <section class="card sql-console" aria-labelledby="sql-h" data-testid="sql-console-off">
          <h2 id="sql-h">SQL console</h2>
          <p>The SQL console is off: {sqlConsole.reason}.</p>
        </section>
      )}
    </>
  );
}

function qualified(table: { schema: string; name: string }): string {
  const id = (s: string) => (/^[a-z_][a-z0-9_]*$/.test(s) ? s : `"${s.replace(/"/g, '""')}"`);
  return table.schema === "public" ? id(table.name) : `${id(table.schema)}.${id(table.name)}`;
}
