import { Field } from "./Field";

/** A link's tags in its edit form: names separated by commas, as the link will have them. */
export function TagEditor({ id, value, onInput, error }: { id: string; value: string; onInput: (value: string) => void; error?: string | null }) {
  return (
    <Field
      id={id}
      label="Tags"
      value={value}
      placeholder="launch, newsletter"
      hint="Separate tags with commas; at most 20. A new name makes a new tag."
      onInput={(e) => onInput(e.currentTarget.value)}
      error={error}
    />
  );
}
