import { useState } from "preact/hooks";
import { SelectField } from "./SelectField";

// A link's QR image as the visitor wants it (GET /links/:code/qr): PNG or SVG, its size,
// colours and margin, with a live preview and a download of exactly what is previewed.

interface QrValues {
  format: "png" | "svg";
  size: string;
  color: string;
  background: string;
  margin: string;
}

const defaults: QrValues = { format: "png", size: "512", color: "#000000", background: "#ffffff", margin: "4" };

/** The endpoint's address for `values` (same origin, as every API call of the front end). */
export function qrUrl(code: string, values: QrValues): string {
  const query = new URLSearchParams({ ...values });
  return `/links/${encodeURIComponent(code)}/qr?${query.toString()}`;
}

/** A whole number within bounds, or the fallback while the input holds something else. */
function bounded(value: string, min: number, max: number, fallback: string): string {
  const n = Number(value);
  return Number.isInteger(n) && n >= min && n <= max ? String(n) : fallback;
}

export function QrOptions({ code, shortUrl }: { code: string; shortUrl: string }) {
  const [values, setValues] = useState(defaults);
  const id = (field: string) => `qr-${code}-${field}`;
  const set = (field: keyof QrValues) => (e: { currentTarget: HTMLInputElement }) => setValues({ ...values, [field]: e.currentTarget.value });
  // The preview follows only values the endpoint takes: a size half typed keeps the last good one.
  const shown: QrValues = { ...values, size: bounded(values.size, 64, 2048, defaults.size), margin: bounded(values.margin, 0, 16, defaults.margin) };
  const src = qrUrl(code, shown);
  return (
    <div class="qr-options">
      <div class="qr-fields">
        <SelectField id={id("format")} label="Format" value={values.format} options={{ png: "PNG", svg: "SVG" }} onChange={(format) => setValues({ ...values, format })} />
        <div class="field">
          <label for={id("size")}>Size (pixels)</label>
          <input id={id("size")} type="number" inputMode="numeric" min={64} max={2048} step={1} value={values.size} onInput={set("size")} />
        </div>
        <div class="field">
          <label for={id("margin")}>Margin (modules)</label>
          <input id={id("margin")} type="number" inputMode="numeric" min={0} max={16} step={1} value={values.margin} onInput={set("margin")} />
        </div>
        <div class="field colour">
          <label for={id("color")}>Colour</label>
          <input id={id("color")} type="color" value={values.color} onInput={set("color")} />
        </div>
        <div class="field colour">
          <label for={id("background")}>Background</label>
          <input id={id("background")} type="color" value={values.background} onInput={set("background")} />
        </div>
      </div>
      <figure class="qr-preview">
        <img class="qr" src={src} alt={`QR code for ${shortUrl}`} width={164} height={164} loading="lazy" />
        <figcaption>
          <a href={src} download={`${code}-qr.${shown.format}`}>
            Download {shown.format.toUpperCase()} ({shown.size} × {shown.size})
          </a>
        </figcaption>
      </figure>
    </div>
  );
}
