/**
 * A row of buttons of which one is on (aria-pressed), named as a group for screen readers.
 * A button in `disabled` cannot be chosen.
 */
export function ToggleGroup<V extends string>({
  label,
  value,
  options,
  disabled = [],
  onChange,
}: {
  label: string;
  value: V;
  options: Record<V, string>;
  disabled?: V[];
  onChange: (value: V) => void;
}) {
  return (
    <div class="toggles" role="group" aria-label={label}>
      {(Object.entries(options) as [V, string][]).map(([v, text]) => (
        <button key={v} type="button" aria-pressed={v === value} disabled={disabled.includes(v)} onClick={() => v !== value && onChange(v)}>
          {text}
        </button>
      ))}
    </div>
  );
}
