import type { ComponentChildren } from "preact";

/** A message about the whole form or page; role=alert makes screen readers announce it when it appears. */
export function Alert({ children }: { children: ComponentChildren }) {
  return (
    <p class="alert" role="alert">
      {children}
    </p>
  );
}
