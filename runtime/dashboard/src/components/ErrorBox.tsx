import type { ApiError } from "../api.ts";

/** An API error as the API answered it: its code and message, in the page. */
export function ErrorBox({ error, title }: { error: ApiError | null; title?: string }) {
  if (!error) return null;
  return (
    <div class="error" role="alert" data-testid="error" data-code={error.code}>
      {title && <strong>{title}: </strong>}
      <code>{error.code}</code> {error.message}
    </div>
  );
}
