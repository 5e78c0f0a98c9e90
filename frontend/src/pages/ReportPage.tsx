import { useState } from "preact/hooks";
import { client } from "../api";
import { ErrCode, isAPIError, type link_rules } from "../client.gen";
import { Alert } from "../components/Alert";
import { Field } from "../components/Field";
import { SelectField } from "../components/SelectField";
import { useApiForm } from "../form";
import { href } from "../router";

const labels = { reason: "Reason", details: "What you saw", email: "Your email" } as const;
const reasons: Record<link_rules.ReportReason, string> = {
  spam: "Spam",
  phishing: "Phishing or fraud",
  malware: "Malware",
  illegal: "Illegal content",
  other: "Something else",
};

/** A visitor's report of an abusive link, for the administrators' queue. No account needed. */
export function ReportPage({ code }: { code: string }) {
  const [reason, setReason] = useState<link_rules.ReportReason>("spam");
  const [details, setDetails] = useState("");
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const [limited, setLimited] = useState<string | null>(null);
  const { busy, formError, errorOf, run } = useApiForm(labels);

  const submit = async (event: Event) => {
    event.preventDefault();
    setLimited(null);
    await run(async () => {
      try {
        await client.links.reportLink({ code, reason, details: details.trim() || undefined, email: email.trim() || undefined });
        setSent(true);
      } catch (err) {
        if (!(isAPIError(err) && err.code === ErrCode.ResourceExhausted)) throw err;
        const wait = (err.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
        setLimited(`You have sent too many reports from this address. Try again ${wait ? `in ${Math.ceil(wait / 60)} minutes` : "later"}.`);
      }
    });
  };

  if (sent) {
    return (
      <>
        <h1 tabIndex={-1}>Report sent</h1>
        <p role="status" class="notice">
          Thank you: the administrators will look at {code}. {email.trim() && "They may write to you at the email you gave."}
        </p>
        <p>
          <a href={href.shorten}>Back to the start</a>
        </p>
      </>
    );
  }
  return (
    <>
      <h1 tabIndex={-1}>Report link {code}</h1>
      <p>Tell the administrators of this site why the short link {code} is abusive. Your address is not kept.</p>
      {formError && <Alert>{formError}</Alert>}
      {limited && <Alert>{limited}</Alert>}
      <form class="stacked-form" onSubmit={submit} noValidate>
        <SelectField id="report-reason" label={labels.reason} value={reason} options={reasons} onChange={setReason} />
        <div class="field">
          <label for="report-details">{labels.details} (optional)</label>
          <textarea id="report-details" maxLength={1000} rows={4} value={details} onInput={(e) => setDetails(e.currentTarget.value)} aria-invalid={errorOf("details") ? true : undefined} />
          {errorOf("details") && <p class="alert">{errorOf("details")}</p>}
        </div>
        <Field id="report-email" label={`${labels.email} (optional, to be answered)`} type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} error={errorOf("email")} autoComplete="email" />
        <button type="submit" disabled={busy}>
          {busy ? "Sending…" : "Send report"}
        </button>
      </form>
    </>
  );
}
