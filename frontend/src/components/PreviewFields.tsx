import type { links } from "../client.gen";
import { Field } from "./Field";

/** A link's preview (what a chat or a social site shows when it is shared), as the inputs hold it. */
export interface PreviewValues {
  title: string;
  description: string;
  image: string;
  /** Fill the empty fields from the target page when saving. */
  fetch: boolean;
}

/** The API's names of the fields, with their labels (useApiForm shows a refusal by the field it names). */
export const previewLabels = { "preview.title": "Headline", "preview.description": "Summary", "preview.image": "Image URL" } as const;

type PreviewField = keyof typeof previewLabels;

export function previewValuesOf(preview: links.LinkPreview | undefined): PreviewValues {
  return { title: preview?.title ?? "", description: preview?.description ?? "", image: preview?.image ?? "", fetch: false };
}

/** A PATCH's preview fields: only what changed, an emptied field as null (cleared). */
export function previewChangesOf(before: PreviewValues, after: PreviewValues): Pick<links.UpdateLinkRequest, "preview" | "fetchPreview"> {
  const preview: links.LinkPreviewChange = {};
  for (const field of ["title", "description", "image"] as const) {
    if (after[field].trim() !== before[field]) preview[field] = after[field].trim() || null;
  }
  return { ...(Object.keys(preview).length > 0 ? { preview } : {}), ...(after.fetch ? { fetchPreview: true } : {}) };
}

export const noPreviewValues: PreviewValues = { title: "", description: "", image: "", fetch: false };

/** A new link's preview fields: the empty ones left out. */
export function newLinkPreview(values: PreviewValues): Pick<links.ShortenRequest, "preview" | "fetchPreview"> {
  const preview: links.LinkPreview = {};
  for (const field of ["title", "description", "image"] as const) if (values[field].trim()) preview[field] = values[field].trim();
  return { ...(Object.keys(preview).length > 0 ? { preview } : {}), ...(values.fetch ? { fetchPreview: true } : {}) };
}

/** Why the page did not fill the preview, when it was asked to and did not. */
export function PreviewFetchNotice({ fetch }: { fetch: links.PreviewFetch | undefined }) {
  if (fetch === undefined || fetch.ok) return null;
  return <p class="notice">The preview was not filled from the target page: {fetch.reason}.</p>;
}

interface PreviewFieldsProps {
  /** Makes the inputs' ids unique on a page with several of these forms. */
  idPrefix: string;
  values: PreviewValues;
  onChange: (values: PreviewValues) => void;
  errorOf: (field: PreviewField) => string | null;
}

/** The preview's inputs, folded away until opened (or while one of them is refused). */
export function PreviewFields({ idPrefix, values, onChange, errorOf }: PreviewFieldsProps) {
  const input = (field: "title" | "description" | "image") => ({
    id: `${idPrefix}preview-${field}`,
    label: previewLabels[`preview.${field}`],
    value: values[field],
    onInput: (e: { currentTarget: HTMLInputElement }) => onChange({ ...values, [field]: e.currentTarget.value }),
    // "preview.image must be…" as "Image URL must be…".
    error: errorOf(`preview.${field}`)?.replace(/^preview\.\w+/, previewLabels[`preview.${field}`]) ?? null,
  });
  const refused = (Object.keys(previewLabels) as PreviewField[]).some((field) => errorOf(field) !== null);
  return (
    <details class="preview-fields" open={refused || undefined}>
      <summary>Social preview</summary>
      <p class="hint">What chat apps and social sites show when the short link is shared. Empty: their own guess.</p>
      <Field maxLength={200} {...input("title")} />
      <Field maxLength={1000} {...input("description")} />
      <Field type="url" inputMode="url" placeholder="https://…" {...input("image")} />
      <label class="check">
        <input type="checkbox" checked={values.fetch} onChange={(e) => onChange({ ...values, fetch: e.currentTarget.checked })} /> Fill the empty fields
        from the target page when saving
      </label>
    </details>
  );
}
