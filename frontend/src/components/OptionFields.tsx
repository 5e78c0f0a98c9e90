import { fromLocalInput } from "../format";
import { Field } from "./Field";

/** The options a link has whether it is being made or changed, as the inputs hold them. */
export interface OptionValues {
  expiresAt: string;
  maxClicks: string;
  title: string;
}

export const noOptions: OptionValues = { expiresAt: "", maxClicks: "", title: "" };

export const optionLabels = { expiresAt: "Expires", maxClicks: "Maximum clicks", title: "Title" } as const;

interface OptionFieldsProps {
  /** Makes the inputs' ids unique on a page with several of these forms. */
  idPrefix: string;
  values: OptionValues;
  onChange: (values: OptionValues) => void;
  errorOf: (field: keyof OptionValues) => string | null;
}

export function OptionFields({ idPrefix, values, onChange, errorOf }: OptionFieldsProps) {
  const input = (field: keyof OptionValues) => ({
    id: `${idPrefix}${field}`,
    label: optionLabels[field],
    value: values[field],
    onInput: (e: { currentTarget: HTMLInputElement }) => onChange({ ...values, [field]: e.currentTarget.value }),
    error: errorOf(field),
  });
  return (
    <>
      <Field type="datetime-local" hint="Your time zone. Empty: it never expires." {...input("expiresAt")} />
      <Field type="number" inputMode="numeric" min={1} hint="It stops working after this many. Empty: no limit." {...input("maxClicks")} />
      <Field hint="For you: shown in My links." maxLength={200} {...input("title")} />
    </>
  );
}

/** A number input's value for the API: a number when it is one, else as typed, for the API to refuse in its own words. */
export function numberValue(value: string): number {
  const n = Number(value);
  return (Number.isFinite(n) ? n : value) as number;
}

/** The options as a new link's fields: the empty ones left out. */
export function newLinkOptions(values: OptionValues): { expiresAt?: string; maxClicks?: number; title?: string } {
  return {
    expiresAt: fromLocalInput(values.expiresAt) || undefined,
    maxClicks: values.maxClicks === "" ? undefined : numberValue(values.maxClicks),
    title: values.title.trim() || undefined,
  };
}
