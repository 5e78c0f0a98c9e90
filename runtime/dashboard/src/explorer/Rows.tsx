/** Editable name/value rows (query parameters, headers), with a row to add and a button to remove each. */
export function Rows({
  label,
  rows,
  onChange,
}: {
  label: string;
  rows: readonly (readonly [string, string])[];
  onChange(rows: [string, string][]): void;
}) {
  const set = (i: number, at: 0 | 1, value: string) => onChange(rows.map((row, j) => (j !== i ? [row[0], row[1]] : at === 0 ? [value, row[1]] : [row[0], value])));
  return (
    <fieldset class="rows">
      <legend>{label}</legend>
      {rows.map(([name, value], i) => (
        <div class="row" key={i}>
          <input class="mono" aria-label={`${label} name ${i + 1}`} value={name} onInput={(e) => set(i, 0, e.currentTarget.value)} />
          <input class="mono" aria-label={`${label} value ${i + 1}`} value={value} onInput={(e) => set(i, 1, e.currentTarget.value)} />
          <button type="button" class="icon" title="Remove" aria-label={`Remove ${label} ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i).map(([a, b]) => [a, b]))}>
            ×
          </button>
        </div>
      ))}
      <button type="button" class="link" onClick={() => onChange([...rows.map(([a, b]): [string, string] => [a, b]), ["", ""]])}>
        + add
      </button>
    </fieldset>
  );
}
