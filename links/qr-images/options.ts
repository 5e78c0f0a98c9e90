import { APIError } from "encore.dev/api";

// The options of GET /links/:code/qr, read from its query: each checked, a bad one a 400
// naming its parameter.

export interface QrOptions {
  readonly format: "png" | "svg";
  /** The image's width and height in pixels (the SVG's width and height attributes). */
  readonly size: number;
  /** The modules' colour and the background's, "#rrggbb" in lower case. */
  readonly color: string;
  readonly background: string;
  /** The quiet zone around the code, in modules. */
  readonly margin: number;
}

export const qrDefaults: QrOptions = Object.freeze({ format: "png", size: 256, color: "#000000", background: "#ffffff", margin: 4 });

export const qrSizes = { min: 64, max: 2048 } as const;
export const qrMargins = { min: 0, max: 16 } as const;

const hexColour = /^#[0-9a-fA-F]{6}$/;

/** The options `query` asks for, the defaults for those it leaves out or empty. */
export function qrOptionsOf(query: URLSearchParams): QrOptions {
  const given = (name: string) => {
    const value = query.get(name);
    return value === null || value === "" ? undefined : value;
  };
  const format = given("format") ?? qrDefaults.format;
  if (format !== "png" && format !== "svg") throw APIError.invalidArgument(`format must be png or svg, got "${format.slice(0, 20)}"`);
  return {
    format,
    size: wholeNumber("size", given("size"), qrDefaults.size, qrSizes),
    color: colour("color", given("color"), qrDefaults.color),
    background: colour("background", given("background"), qrDefaults.background),
    margin: wholeNumber("margin", given("margin"), qrDefaults.margin, qrMargins),
  };
}

function wholeNumber(name: string, value: string | undefined, fallback: number, { min, max }: { min: number; max: number }): number {
  if (value === undefined) return fallback;
  const n = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(n >= min && n <= max)) throw APIError.invalidArgument(`${name} must be a whole number from ${min} to ${max}, got "${value.slice(0, 20)}"`);
  return n;
}

function colour(name: string, value: string | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  if (!hexColour.test(value)) throw APIError.invalidArgument(`${name} must be a colour as #rrggbb, got "${value.slice(0, 20)}"`);
  return value.toLowerCase();
}
