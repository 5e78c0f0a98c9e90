/** What the forms set on an input (Preact's own input type is a union that does not spread). */
interface InputProps {
  type?: "text" | "url" | "email" | "password" | "number" | "search" | "datetime-local";
  value: string;
  onInput: (event: { currentTarget: HTMLInputElement }) => void;
  autoComplete?: string;
  placeholder?: string;
  inputMode?: "url" | "email" | "numeric";
  required?: boolean;
  min?: number;
  max?: number;
  maxLength?: number;
}

interface FieldProps extends InputProps {
  id: string;
  label: string;
  /** Shown under the field and announced with it (aria-describedby); marks it aria-invalid. */
  error?: string | null;
  hint?: string;
}

/** A labelled input with its hint and its error tied to it, so a screen reader reads all three. */
export function Field({ id, label, error, hint, type = "text", ...input }: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {/* Preact types each input type's attributes apart; ours all take these, so one cast for the union. */}
      <input id={id} name={id} type={type as "text"} aria-invalid={error ? "true" : undefined} aria-describedby={describedBy} {...input} />
      {hint && (
        <p class="hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}
