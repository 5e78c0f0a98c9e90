import { useState } from "preact/hooks";
import { client, errorMessage, isFieldError } from "../api";
import type { url } from "../client.gen";
import { Alert } from "../components/Alert";
import { CopyButton } from "../components/CopyButton";
import { Field } from "../components/Field";
import { href } from "../router";

export function ShortenPage() {
  const [target, setTarget] = useState("");
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [result, setResult] = useState<url.ShortenResponse | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setFieldError(null);
    setFormError(null);
    try {
      setResult(await client.url.shorten({ url: target.trim() }));
    } catch (err) {
      setResult(null);
      if (isFieldError(err, "url")) setFieldError(errorMessage(err));
      else setFormError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>Shorten a link</h1>
      {/* noValidate: the API's messages (shown next to the field) say more than the browser's. */}
      <form onSubmit={submit} noValidate class="inline-form">
        <Field
          id="url"
          label="Long URL"
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://example.com/a/long/page"
          value={target}
          onInput={(e) => setTarget(e.currentTarget.value)}
          error={fieldError}
        />
        <button type="submit" disabled={busy}>
          {busy ? "Shortening…" : "Shorten"}
        </button>
      </form>
      {formError && <Alert>{formError}</Alert>}
      {result && <ShortLink result={result} />}
    </>
  );
}

function ShortLink({ result }: { result: url.ShortenResponse }) {
  return (
    <section class="result" aria-labelledby="result-heading">
      <h2 id="result-heading">Your short link</h2>
      <p class="short-link">
        <a href={result.shortUrl}>{result.shortUrl}</a> <CopyButton text={result.shortUrl} />
      </p>
      {result.qrCodeUrl && <img class="qr" src={result.qrCodeUrl} alt={`QR code for ${result.shortUrl}`} width={164} height={164} />}
      <p>
        <a href={href.stats(result.code)}>See its clicks</a>
      </p>
    </section>
  );
}
