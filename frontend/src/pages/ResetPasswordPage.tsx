import { useState } from "preact/hooks";
import { client } from "../api";
import { Alert } from "../components/Alert";
import { Field } from "../components/Field";
import { useApiForm } from "../form";
import { href } from "../router";

/** Sets a new password with the token of a mailed link (#/reset/<token>). */
export function ResetPasswordPage({ token }: { token: string }) {
  const [password, setPassword] = useState("");
  const [done, setDone] = useState(false);
  const form = useApiForm({ password: "New password" });

  const submit = async (event: Event) => {
    event.preventDefault();
    if (await form.run(() => client.users.resetPassword({ token, password }))) setDone(true);
  };

  return (
    <>
      <h1 tabIndex={-1}>Choose a new password</h1>
      {done ? (
        <p class="notice" role="status">
          Your password is changed, and every device that was signed in is signed out. <a href={href.login}>Log in</a> with the new one.
        </p>
      ) : (
        <form onSubmit={submit} class="stacked-form" noValidate>
          <Field
            id="password"
            label="New password"
            type="password"
            autoComplete="new-password"
            required
            hint="At least 8 characters."
            value={password}
            error={form.errorOf("password")}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
          {form.formError && (
            <Alert>
              {form.formError} <a href={href.forgot}>Ask for a new link</a>
            </Alert>
          )}
          <button type="submit" disabled={form.busy}>
            {form.busy ? "Saving…" : "Set the new password"}
          </button>
        </form>
      )}
    </>
  );
}
