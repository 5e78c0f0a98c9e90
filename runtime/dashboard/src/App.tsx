import { Nav } from "./Nav.tsx";
import { LockedOut } from "./components/LockedOut.tsx";
import { useLive } from "./live.ts";
import { PageHeader } from "./components/PageHeader.tsx";
import { BucketsPage } from "./pages/BucketsPage.tsx";
import { CachesPage } from "./pages/CachesPage.tsx";
import { CronPage } from "./pages/CronPage.tsx";
import { DatabasesPage } from "./pages/DatabasesPage.tsx";
import { EndpointPage } from "./pages/EndpointPage.tsx";
import { FlowPage } from "./pages/FlowPage.tsx";
import { PubSubPage } from "./pages/PubSubPage.tsx";
import { ServicesPage } from "./pages/ServicesPage.tsx";
import { TracePage } from "./pages/TracePage.tsx";
import { TracesPage } from "./pages/TracesPage.tsx";
import { href, useRoute } from "./router.ts";

export function App() {
  const route = useRoute();
  const { state } = useLive();
  if (state === "locked") return <LockedOut />;
  return (
    <div class="layout">
      <aside class="side">
        <Nav route={route} />
      </aside>
      <main>
        {route.page === "services" && <ServicesPage only={route.service} />}
        {route.page === "endpoint" && <EndpointPage service={route.service} endpoint={route.endpoint} />}
        {route.page === "flow" && <FlowPage />}
        {route.page === "traces" && <TracesPage key={route.filters.toString()} initial={route.filters} />}
        {route.page === "trace" && <TracePage id={route.id} />}
        {route.page === "pubsub" && <PubSubPage />}
        {route.page === "cron" && <CronPage />}
        {route.page === "databases" && <DatabasesPage selected={route.name} />}
        {route.page === "buckets" && <BucketsPage selected={route.name} />}
        {route.page === "caches" && <CachesPage selected={route.name} />}
        {route.page === "missing" && (
          <>
            <PageHeader title="Page not found" />
            <p>
              Nothing here. <a href={href.services}>Back to the services</a>.
            </p>
          </>
        )}
      </main>
    </div>
  );
}
