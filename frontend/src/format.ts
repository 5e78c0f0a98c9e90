/** A time in the reader's own locale and time zone. */
export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

const pad = (n: number) => String(n).padStart(2, "0");

/** An instant as a datetime-local input's value: the reader's own time zone, to the minute. */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A datetime-local input's value as an ISO instant (the form without an offset is local
 * time); "" stays "" for the caller to read as "none". An unparsable value goes as typed,
 * for the API to refuse with its own message.
 */
export function fromLocalInput(value: string): string {
  if (value === "") return "";
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? value : time.toISOString();
}
