import { useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import { ErrCode, isAPIError } from "../client.gen";
import { Alert } from "../components/Alert";
import { Field } from "../components/Field";
import { href, navigate } from "../router";
import { logIn } from "../session";

/**
 * `justSignedUp`: the email of the account the sign-up page just made, to log in with;
 * `then`: the page to go back to once logged in (an invitation), else My links.
 */
export function LoginPage({ justSignedUp, verificationMailed, then }: { justSignedUp: string | null; verificationMailed: boolean; then?: string }) {
  const [email, setEmail] = useState(justSignedUp ?? "");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The password was right but the email is not verified yet: the form offers a new link.
  const [unverified, setUnverified] = useState(false);
  const [linkSent, setLinkSent] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setUnverified(false);
    try {
      await logIn(email.trim(), password);
      navigate(then ? `#${then}` : href.links);
    } catch (err) {
      // One message for the whole form: the API does not say which of the two was wrong, on purpose.
      setError(errorMessage(err));
      setUnverified(isAPIError(err) && err.code === ErrCode.FailedPrecondition);
      setLinkSent(false);
      setBusy(false);
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>Log in</h1>
      {justSignedUp &&
        (verificationMailed ? (
          <p class="notice">Your account is ready. We mailed a link to {justSignedUp}: follow it to confirm your email, then log in.</p>
        ) : (
          <p class="notice">Your account is ready. Log in with your password.</p>
        ))}
      <form onSubmit={submit} class="stacked-form">
        <Field id="email" label="Email" type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        {error && <Alert>{error}</Alert>}
        {unverified &&
          (linkSent ? (
            <p class="notice" role="status">
              A new link is on its way to {email.trim()}.
            </p>
          ) : (
            <button type="button" class="secondary" onClick={() => void client.users.requestVerificationMail({ email: email.trim() }).then(() => setLinkSent(true), (err: unknown) => setError(errorMessage(err)))}>
              Mail me a new link
            </button>
          ))}
        <button type="submit" disabled={busy}>
          {busy ? "Logging in…" : "Log in"}
        </button>
      </form>
      <p>
        <a href={href.forgot}>Forgot your password?</a>
      </p>
      <p>
        No account yet? <a href={href.signupThen(then)}>Sign up</a>
      </p>
    </>
  );
}
