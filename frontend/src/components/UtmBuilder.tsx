import { Field } from "./Field";

// Campaign tags (utm_source and the rest) written into the target URL's query as they are
// typed, and read back from it: the URL field stays the one truth, so a URL pasted with
// its own utm_ parameters fills these fields, and what is sent is just the URL.

const utmFields = [
  ["source", "Source", "Where the visitor comes from: newsletter, twitter."],
  ["medium", "Medium", "The kind of channel: email, social, cpc."],
  ["campaign", "Campaign", "The campaign's name: spring_sale."],
  ["term", "Term", "Paid search keywords."],
  ["content", "Content", "Which of several links or ads this is."],
] as const;

type UtmName = (typeof utmFields)[number][0];

/** The URL, when it is a whole http(s) one; undefined while it is not (yet). */
function parsed(url: string): URL | undefined {
  try {
    const u = new URL(url.trim());
    return u.protocol === "http:" || u.protocol === "https:" ? u : undefined;
  } catch {
    return undefined;
  }
}

/** `url` with utm_`name` set to `value` (removed when empty); as it was when it is no URL. */
export function withUtm(url: string, name: UtmName, value: string): string {
  const u = parsed(url);
  if (u === undefined) return url;
  if (value === "") u.searchParams.delete(`utm_${name}`);
  else u.searchParams.set(`utm_${name}`, value);
  return u.toString();
}

interface UtmBuilderProps {
  /** Makes the inputs' ids unique on a page with several of these forms. */
  idPrefix: string;
  url: string;
  onChange: (url: string) => void;
}

export function UtmBuilder({ idPrefix, url, onChange }: UtmBuilderProps) {
  const u = parsed(url);
  const tagged = u !== undefined && utmFields.some(([name]) => u.searchParams.has(`utm_${name}`));
  return (
    <details class="options utm" open={tagged || undefined}>
      <summary>Campaign tags (UTM)</summary>
      {u === undefined && <p class="hint">Type the whole URL first (https://…): the tags are added to its query.</p>}
      <div class="options-grid">
        {utmFields.map(([name, label, hint]) => (
          <Field
            key={name}
            id={`${idPrefix}utm-${name}`}
            label={label}
            hint={hint}
            autoComplete="off"
            maxLength={200}
            value={u?.searchParams.get(`utm_${name}`) ?? ""}
            onInput={(e) => onChange(withUtm(url, name, e.currentTarget.value))}
          />
        ))}
      </div>
    </details>
  );
}
