/** A labelled select of fixed choices, `options` as value → text. */
export function SelectField<V extends string>({ id, label, value, options, onChange }: { id: string; label: string; value: V; options: Record<V, string>; onChange: (value: V) => void }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} name={id} value={value} onChange={(e) => onChange(e.currentTarget.value as V)}>
        {(Object.entries(options) as [V, string][]).map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
