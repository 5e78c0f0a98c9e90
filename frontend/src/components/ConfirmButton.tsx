import { useEffect, useRef, useState } from "preact/hooks";
import { errorMessage } from "../api";
import { Alert } from "./Alert";

interface ConfirmButtonProps {
  /** The button's text ("Delete"), and its accessible name with what it acts on ("Delete abc123"). */
  label: string;
  name: string;
  /** What the question says will happen, and the button that does it. */
  question: string;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
}

/**
 * A button for what cannot be undone: it asks first, in the page (no window.confirm, which
 * some browsers let a page turn off), with Cancel focused so a stray Enter keeps things as they are.
 */
export function ConfirmButton({ label, name, question, confirmLabel, onConfirm }: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);

  useEffect(() => {
    if (asking) cancel.current?.focus();
    else if (wasAsking.current) opener.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  if (!asking) {
    return (
      <button type="button" ref={opener} aria-label={name} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <div class="confirm" role="group" aria-label={name}>
      <p>{question}</p>
      <button type="button" class="danger" disabled={busy} onClick={confirm}>
        {confirmLabel}
      </button>{" "}
      <button type="button" ref={cancel} disabled={busy} onClick={() => setAsking(false)}>
        Cancel
      </button>
      {error && <Alert>{error}</Alert>}
    </div>
  );
}
