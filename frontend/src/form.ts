import { useState } from "preact/hooks";
import { errorMessage, fieldMessage, isFieldError } from "./api";
import { ErrCode, isAPIError } from "./client.gen";

interface FieldError<F extends string> {
  field: F;
  message: string;
}

/**
 * A form's call to the API and what it says back: busy while it runs, and a refusal shown
 * next to the field it names (`labels` lists the form's fields as the API names them, with
 * their labels), else for the whole form. `taken`: the field a 409 already_exists is about.
 */
export function useApiForm<F extends string>(labels: Record<F, string>, taken?: NoInfer<F>) {
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<FieldError<F> | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const aboutField = (err: unknown): FieldError<F> | null => {
    const field = (Object.keys(labels) as F[]).find((f) => isFieldError(err, f));
    if (field) return { field, message: fieldMessage(err, labels[field]) };
    if (taken && isAPIError(err) && err.code === ErrCode.AlreadyExists) return { field: taken, message: err.message };
    return null;
  };

  /** Runs `call` with the last attempt's errors cleared; answers whether it succeeded. */
  const run = async (call: () => Promise<void>): Promise<boolean> => {
    setBusy(true);
    setFieldError(null);
    setFormError(null);
    try {
      await call();
      return true;
    } catch (err) {
      const about = aboutField(err);
      if (about) setFieldError(about);
      else setFormError(errorMessage(err));
      return false;
    } finally {
      setBusy(false);
    }
  };

  return {
    busy,
    formError,
    /** The field the last refusal named, if it named one. */
    errorField: fieldError?.field ?? null,
    errorOf: (field: F) => (fieldError?.field === field ? fieldError.message : null),
    run,
  };
}
