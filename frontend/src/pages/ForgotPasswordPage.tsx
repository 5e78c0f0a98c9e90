import { useState } from "preact/hooks";
import { client } from "../api";
import { Alert } from "../components/Alert";
import { Field } from "../components/Field";
import { useApiForm } from "../form";
import { href } from "../router";

/** Asks for a reset link by mail. The answer is the same whether or not the email has an account. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useApiForm({ email: "Email" });

  const submit = async (event: Event) => {
    event.preventDefault();
    const address = email.trim();
    if (await form.run(() => client.users.requestPasswordReset({ email: address }))) setSentTo(address);
  };

  return (
    <>
      <h1 tabIndex={-1}>Forgot your password?</h1>
      {sentTo ? (
        <p class="notice" role="status">
          If an account has the email {sentTo}, a mail with a link to choose a new password is on its way. The link works for an hour, once.
        </p>
      ) : (
        <form onSubmit={submit} class="stacked-form" noValidate>
          <p class="hint">Give your account's email: we mail you a link to choose a new password.</p>
          <Field id="email" label="Email" type="email" autoComplete="username" required value={email} error={form.errorOf("email")} onInput={(e) => setEmail(e.currentTarget.value)} />
          {form.formError && <Alert>{form.formError}</Alert>}
          <button type="submit" disabled={form.busy}>
            {form.busy ? "Sending…" : "Mail me a link"}
          </button>
        </form>
      )}
      <p>
        <a href={href.login}>Back to log in</a>
      </p>
    </>
  );
}
