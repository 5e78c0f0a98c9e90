import { useState } from "preact/hooks";
import type { AppInfo, CallRequest, CallResult, CatalogEndpoint, ExplorerAuth, ExplorerRequest } from "../../../internal/dashboard/api.ts";
import { api, ApiError, asApiError } from "../api.ts";
import { CopyButtons } from "../components/CopyBox.tsx";
import { ErrorBox } from "../components/ErrorBox.tsx";
import { curlCommand, typescriptCall } from "../snippets.ts";
import { useApi } from "../use-api.ts";
import { CallResultView } from "./CallResultView.tsx";
import { Rows } from "./Rows.tsx";

const anyMethod = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

type AuthKind = ExplorerAuth["kind"];

/** The API explorer: the endpoint's example request, editable, sent through the dashboard to the app. */
export function Explorer({ endpoint }: { endpoint: CatalogEndpoint }) {
  const example = endpoint.example;
  const app = useApi<AppInfo>("/api/app");
  const [method, setMethod] = useState(example.method);
  const [path, setPath] = useState(example.path);
  const [query, setQuery] = useState<[string, string][]>(example.query.map(([k, v]) => [k, v]));
  const [headers, setHeaders] = useState<[string, string][]>(Object.entries(example.headers));
  const [body, setBody] = useState(example.body ?? "");
  const [authKind, setAuthKind] = useState<AuthKind>("none");
  const [token, setToken] = useState("");
  const [authData, setAuthData] = useState('{\n  "userID": "1"\n}');
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<CallResult | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  const methods = endpoint.methods.includes("*") ? anyMethod : endpoint.methods;
  const request = (): ExplorerRequest => ({
    method,
    path,
    query: query.filter(([k]) => k !== ""),
    headers: Object.fromEntries(headers.filter(([k]) => k.trim() !== "")),
    body: body.trim() === "" ? null : body,
  });
  const auth = (): ExplorerAuth => {
    if (authKind === "bearer") return { kind: "bearer", token };
    if (authKind === "authData") {
      let data: unknown;
      try {
        data = JSON.parse(authData);
      } catch (err) {
        throw new ApiError("invalid_argument", `the auth data is not JSON: ${(err as Error).message}`, 0);
      }
      if (data === null || typeof data !== "object" || Array.isArray(data)) throw new ApiError("invalid_argument", "the auth data must be a JSON object", 0);
      return { kind: "authData", data: data as Record<string, unknown> };
    }
    return { kind: "none" };
  };

  async function send(event: Event) {
    event.preventDefault();
    setSending(true);
    setError(null);
    try {
      const call: CallRequest = { ...request(), service: endpoint.service, endpoint: endpoint.name, auth: auth() };
      setResult(await api<CallResult>("/api/call", call));
    } catch (err) {
      setResult(null);
      setError(asApiError(err));
    } finally {
      setSending(false);
    }
  }

  const baseUrl = app.data?.appBaseUrl ?? location.origin;
  return (
    <section class="explorer card" aria-labelledby="explorer-h" data-testid="explorer">
      <h2 id="explorer-h">API explorer</h2>
      {!endpoint.expose && <p class="muted small">An internal endpoint: the app answers it only to its own services, and to this dashboard.</p>}
      <form onSubmit={(e) => void send(e)}>
        <div class="row request-line">
          <select aria-label="Method" value={method} onChange={(e) => setMethod(e.currentTarget.value)}>
            {methods.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
          <input class="mono grow" aria-label="Path" value={path} onInput={(e) => setPath(e.currentTarget.value)} />
          <button type="submit" disabled={sending}>
            {sending ? "Sending…" : "Send"}
          </button>
        </div>
        <div class="two-col">
          <Rows label="Query" rows={query} onChange={setQuery} />
          <Rows label="Headers" rows={headers} onChange={setHeaders} />
        </div>
        <label>
          Body (JSON)
          <textarea class="mono" rows={Math.min(14, Math.max(3, body.split("\n").length + 1))} value={body} onInput={(e) => setBody(e.currentTarget.value)} spellcheck={false} />
        </label>
        <fieldset class="auth">
          <legend>Auth</legend>
          <div class="row">
            <label class="inline">
              <input type="radio" name="auth" checked={authKind === "none"} onChange={() => setAuthKind("none")} /> None
            </label>
            <label class="inline">
              <input type="radio" name="auth" checked={authKind === "bearer"} onChange={() => setAuthKind("bearer")} /> Bearer token
            </label>
            {!endpoint.expose && (
              <label class="inline">
                <input type="radio" name="auth" checked={authKind === "authData"} onChange={() => setAuthKind("authData")} /> Auth data
              </label>
            )}
          </div>
          {authKind === "bearer" && <input class="mono" aria-label="Bearer token" placeholder="token" value={token} onInput={(e) => setToken(e.currentTarget.value)} />}
          {authKind === "authData" && (
            <label>
              <span class="muted small">The handler runs with this auth data; the auth handler is skipped.</span>
              <textarea class="mono" aria-label="Auth data" rows={4} value={authData} onInput={(e) => setAuthData(e.currentTarget.value)} spellcheck={false} />
            </label>
          )}
        </fieldset>
      </form>
      <CopyButtons
        items={[
          {
            label: "Copy as curl",
            make: () => {
              const text = curlCommand(baseUrl, endpoint, request(), authKind === "bearer" ? { kind: "bearer", token } : { kind: "none" });
              return text === null ? { text, note: "an internal endpoint is reachable only from the app's services and this dashboard, not with curl." } : { text };
            },
          },
          { label: "Copy as TypeScript", make: () => ({ text: typescriptCall(endpoint, request()) }) },
        ]}
      />
      <ErrorBox error={error} title="The call failed" />
      {result && <CallResultView result={result} />}
    </section>
  );
}
