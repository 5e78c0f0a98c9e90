// The flow diagram's placed graph, and what it reads on edges: shared by the layout and the drawing.
import type { Flow } from "../../../internal/dashboard/api.ts";

export type FlowNode = Flow["nodes"][number];
export type FlowEdge = Flow["edges"][number];

export interface PlacedNode extends FlowNode {
  /** The centre, as dagre places nodes. */
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface PlacedEdge extends FlowEdge {
  readonly points: readonly { x: number; y: number }[];
  /** Where the label's centre goes. */
  readonly labelX: number;
  readonly labelY: number;
  readonly labelWidth: number;
}

export interface FlowLayout {
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
}

/** The width an edge's label takes, in the diagram's 10.5px monospace labels. */
export function labelWidth(edge: FlowEdge): number {
  return edgeText(edge).length * 6.4 + 8;
}

export function edgeText(edge: FlowEdge): string {
  return edge.label ? `${edge.kind}: ${edge.label}` : edge.kind;
}
