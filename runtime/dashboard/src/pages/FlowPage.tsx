import { useEffect, useState } from "preact/hooks";
import type { Flow } from "../../../internal/dashboard/api.ts";
import { asApiError, type ApiError } from "../api.ts";
import { ErrorBox } from "../components/ErrorBox.tsx";
import { Empty, Loading, PageHeader } from "../components/PageHeader.tsx";
import { Diagram, Legend } from "../flow/Diagram.tsx";
import type { FlowLayout } from "../flow/graph.ts";
import { useApi } from "../use-api.ts";

/** The app as a graph: who calls whom, who publishes and subscribes to what, what each service uses. */
export function FlowPage() {
  const { data, error } = useApi<Flow>("/api/flow");
  const [layout, setLayout] = useState<FlowLayout | null>(null);
  const [layoutError, setLayoutError] = useState<ApiError | null>(null);

  useEffect(() => {
    if (!data) return;
    let current = true;
    import("../flow/layout.ts").then(
      ({ layoutFlow }) => current && setLayout(layoutFlow(data)),
      (err: unknown) => current && setLayoutError(asApiError(err)),
    );
    return () => {
      current = false;
    };
  }, [data]);

  return (
    <>
      <PageHeader title="Flow" sub="Click a service for its catalog entry." />
      <ErrorBox error={error ?? layoutError} />
      {!layout && !error && !layoutError && <Loading what="the flow diagram" />}
      {data && data.nodes.length === 0 && <Empty>The app declares no services.</Empty>}
      {layout && layout.nodes.length > 0 && (
        <>
          <Legend />
          <div class="flow-wrap">
            <Diagram layout={layout} />
          </div>
        </>
      )}
    </>
  );
}
