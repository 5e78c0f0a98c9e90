import { edgeText, type FlowLayout, type PlacedEdge, type PlacedNode } from "./graph.ts";
import { href } from "../router.ts";

const edgeKinds = ["calls", "publishes", "subscribes", "uses", "schedules"] as const;

/** Where a click on a node leads: a service's catalog entry, or the page of its kind of resource. */
function target(node: PlacedNode): string {
  const name = node.id.slice(node.id.indexOf(":") + 1);
  switch (node.kind) {
    case "service":
      return href.service(name);
    case "topic":
      return href.pubsub;
    case "database":
      return href.database(name);
    case "bucket":
      return href.bucket(name);
    case "cron":
      return href.cron;
  }
}

/** The outline of a node by kind: box, pill, cylinder, bucket, clock-tag. */
function Shape({ node }: { node: PlacedNode }) {
  const { width: w, height: h } = node;
  const x = -w / 2;
  const y = -h / 2;
  switch (node.kind) {
    case "service":
      return <rect x={x} y={y} width={w} height={h} rx={6} />;
    case "topic":
      return <rect x={x} y={y} width={w} height={h} rx={h / 2} />;
    case "database": {
      const ry = 6;
      return (
        <>
          <path d={`M${x},${y + ry} a${w / 2},${ry} 0 0 1 ${w},0 v${h - 2 * ry} a${w / 2},${ry} 0 0 1 ${-w},0 z`} />
          <path class="rim" d={`M${x},${y + ry} a${w / 2},${ry} 0 0 0 ${w},0`} />
        </>
      );
    }
    case "bucket":
      return <path d={`M${x},${y} h${w} l-8,${h} h${-(w - 16)} z`} />;
    case "cron":
      return <rect x={x} y={y} width={w} height={h} rx={3} class="dashed" />;
  }
}

function edgePath(edge: PlacedEdge): string {
  const [first, ...rest] = edge.points;
  if (!first) return "";
  return `M${first.x},${first.y}` + rest.map((p) => ` L${p.x},${p.y}`).join("");
}

export function Diagram({ layout }: { layout: FlowLayout }) {
  return (
    <svg
      class="flow"
      role="img"
      aria-label="How the app's services, topics, databases, buckets and cron jobs connect"
      width={layout.width}
      height={layout.height}
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      data-testid="flow"
    >
      <defs>
        {edgeKinds.map((kind) => (
          <marker key={kind} id={`arrow-${kind}`} class={`arrow edge-${kind}`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" />
          </marker>
        ))}
      </defs>
      {layout.edges.map((edge, i) => (
        <g key={i} class={`edge edge-${edge.kind}`} data-edge={`${edge.from}->${edge.to}`} data-kind={edge.kind}>
          <path d={edgePath(edge)} marker-end={`url(#arrow-${edge.kind})`} />
          <rect class="edge-label-bg" x={edge.labelX - edge.labelWidth / 2} y={edge.labelY - 7} width={edge.labelWidth} height={14} rx={3} />
          <text x={edge.labelX} y={edge.labelY} dy="0.35em" text-anchor="middle" class="edge-label">
            {edgeText(edge)}
          </text>
        </g>
      ))}
      {layout.nodes.map((node) => (
        <a key={node.id} href={target(node)} class={`node node-${node.kind}`} data-node-id={node.id}>
          <title>{`${node.kind} ${node.label}`}</title>
          <g transform={`translate(${node.x},${node.y})`}>
            <Shape node={node} />
            <text dy={node.kind === "database" ? "0.6em" : "0.35em"} text-anchor="middle">
              {node.label}
            </text>
          </g>
        </a>
      ))}
    </svg>
  );
}

export function Legend() {
  return (
    <div class="legend row small">
      {(["service", "topic", "database", "bucket", "cron"] as const).map((kind) => (
        <span key={kind} class="legend-item">
          <svg width="18" height="12" aria-hidden="true">
            <rect class={`swatch node-${kind}`} x="1" y="1" width="16" height="10" rx={kind === "topic" ? 5 : 2} />
          </svg>
          {kind}
        </span>
      ))}
      {edgeKinds.map((kind) => (
        <span key={kind} class="legend-item">
          <svg width="26" height="10" aria-hidden="true">
            <line class={`swatch-line edge-${kind}`} x1="1" y1="5" x2="25" y2="5" />
          </svg>
          {kind}
        </span>
      ))}
    </div>
  );
}
