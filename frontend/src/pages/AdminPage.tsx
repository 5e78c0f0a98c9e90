import { useEffect, useState } from "preact/hooks";
import { adminHref, type AdminTab } from "../router";
import { AuditTab } from "./admin/AuditTab";
import { HostsTab } from "./admin/HostsTab";
import { LinksTab } from "./admin/LinksTab";
import { ReportsTab } from "./admin/ReportsTab";
import { UsersTab } from "./admin/UsersTab";

const tabs: Record<AdminTab, string> = { users: "Users", links: "Links", reports: "Reports", hosts: "Hosts", audit: "Audit log" };

/** The instance's administration (ADMIN_EMAILS only): accounts, links, reports, banned hosts, the audit log. */
export function AdminPage({ tab, params }: { tab: AdminTab; params: Record<string, string> }) {
  const [notice, setNotice] = useState("");
  // What was done in one section is not news in the next.
  useEffect(() => setNotice(""), [tab]);
  return (
    <>
      <h1 tabIndex={-1}>Admin</h1>
      <nav aria-label="Admin sections">
        <ul class="tabs">
          {(Object.entries(tabs) as [AdminTab, string][]).map(([id, label]) => (
            <li key={id}>
              <a href={adminHref(id)} aria-current={tab === id ? "page" : undefined}>
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <p role="status" class={notice ? "notice" : "status-line"}>
        {notice}
      </p>
      {tab === "users" && <UsersTab onNotice={setNotice} />}
      {tab === "links" && <LinksTab key={JSON.stringify(params)} onNotice={setNotice} creator={params.creator} host={params.host} />}
      {tab === "reports" && <ReportsTab onNotice={setNotice} />}
      {tab === "hosts" && <HostsTab onNotice={setNotice} />}
      {tab === "audit" && <AuditTab />}
    </>
  );
}
