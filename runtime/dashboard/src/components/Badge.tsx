import type { ComponentChildren } from "preact";

export type Tone = "neutral" | "accent" | "ok" | "warn" | "error" | "muted";

export function Badge({ tone = "neutral", title, children }: { tone?: Tone; title?: string; children: ComponentChildren }) {
  return (
    <span class={`badge tone-${tone}`} title={title}>
      {children}
    </span>
  );
}

/** An HTTP method, coloured the way API tools colour them. */
export function MethodBadge({ method }: { method: string }) {
  return <span class={`method m-${method === "*" ? "any" : method.toLowerCase()}`}>{method === "*" ? "ANY" : method}</span>;
}

/** An HTTP status, or ok / error for traces without one. */
export function StatusBadge({ status, error }: { status: number | null; error?: string | null }) {
  if (status === null) return error ? <Badge tone="error" title={error}>error</Badge> : <Badge tone="ok">ok</Badge>;
  const tone: Tone = status >= 500 ? "error" : status >= 400 ? "warn" : "ok";
  return (
    <Badge tone={tone} title={error ?? undefined}>
      {status}
    </Badge>
  );
}
