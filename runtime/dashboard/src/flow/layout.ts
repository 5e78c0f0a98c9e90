// The flow graph laid out left to right by dagre; the page draws what this answers.
// Loaded on its own (a dynamic import), so only the flow page pays for dagre.
import { graphlib, layout } from "@dagrejs/dagre";
import type { Flow } from "../../../internal/dashboard/api.ts";
import { labelWidth, type FlowLayout, type PlacedEdge, type PlacedNode } from "./graph.ts";

// Sizes from the label's length: the page draws labels in a 12px monospace face.
const charWidth = 7.3;
const nodeHeight = 40;

export function layoutFlow(flow: Flow): FlowLayout {
  const g = new graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: "LR", nodesep: 24, ranksep: 90, edgesep: 14, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  const known = new Set(flow.nodes.map((n) => n.id));
  for (const node of flow.nodes) {
    g.setNode(node.id, { width: Math.max(90, node.label.length * charWidth + 44), height: nodeHeight });
  }
  const edges = flow.edges.filter((e) => known.has(e.from) && known.has(e.to));
  edges.forEach((edge, i) => {
    g.setEdge(edge.from, edge.to, { width: labelWidth(edge), height: 14, labelpos: "c" }, `${edge.kind}#${i}`);
  });
  layout(g);

  const nodes = flow.nodes.map((node): PlacedNode => {
    const placed = g.node(node.id);
    return { ...node, x: placed.x ?? 0, y: placed.y ?? 0, width: placed.width, height: placed.height };
  });
  const placedEdges = edges.map((edge, i): PlacedEdge => {
    const placed = g.edge(edge.from, edge.to, `${edge.kind}#${i}`);
    return { ...edge, points: placed.points ?? [], labelX: placed.x ?? 0, labelY: placed.y ?? 0, labelWidth: labelWidth(edge) };
  });
  const graph = g.graph();
  return { width: graph.width ?? 0, height: graph.height ?? 0, nodes, edges: placedEdges };
}
