import { useState } from "preact/hooks";
import { client } from "../api";
import { Alert } from "../components/Alert";
import { Field } from "../components/Field";
import { useApiForm } from "../form";
import { href, navigate } from "../router";

const labels = { email: "Email", name: "Name", password: "Password" } as const;
type FieldName = keyof typeof labels;

/** `then`: where the login page goes once the new account logs in (an invitation). */
export function SignupPage({ onSignedUp, then }: { onSignedUp: (email: string, verificationMailed: boolean) => void; then?: string }) {
  const [values, setValues] = useState<Record<FieldName, string>>({ email: "", name: "", password: "" });
  const { busy, formError, errorOf, run } = useApiForm(labels, "email");
  const set = (field: FieldName) => (e: { currentTarget: HTMLInputElement }) => setValues({ ...values, [field]: e.currentTarget.value });

  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const user = await client.users.create({ ...values, email: values.email.trim() });
      onSignedUp(user.email, user.verificationMailed === true);
      navigate(href.loginThen(then));
    });
  };

  return (
    <>
      <h1 tabIndex={-1}>Sign up</h1>
      <form onSubmit={submit} noValidate class="stacked-form">
        <Field id="email" label="Email" type="email" autoComplete="email" value={values.email} onInput={set("email")} error={errorOf("email")} />
        <Field id="name" label="Name" autoComplete="name" value={values.name} onInput={set("name")} error={errorOf("name")} />
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters."
          value={values.password}
          onInput={set("password")}
          error={errorOf("password")}
        />
        {formError && <Alert>{formError}</Alert>}
        <button type="submit" disabled={busy}>
          {busy ? "Signing up…" : "Sign up"}
        </button>
      </form>
      <p>
        Have an account? <a href={href.loginThen(then)}>Log in</a>
      </p>
    </>
  );
}
