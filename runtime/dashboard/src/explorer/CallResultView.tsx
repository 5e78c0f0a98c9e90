import type { CallResult } from "../../../internal/dashboard/api.ts";
import { StatusBadge } from "../components/Badge.tsx";
import { duration, prettyJson } from "../format.ts";
import { href } from "../router.ts";

/** The app's answer to the explorer's call: status, timing, the trace it made, headers and body. */
export function CallResultView({ result }: { result: CallResult }) {
  const contentType = Object.entries(result.headers).find(([k]) => k.toLowerCase() === "content-type")?.[1] ?? "";
  const body = result.bodyEncoding === "base64" ? { text: result.body, json: false } : /json/i.test(contentType) || contentType === "" ? prettyJson(result.body) : { text: result.body, json: false };
  return (
    <section class="call-result" aria-label="Response" data-testid="call-result" data-status={result.status}>
      <div class="row">
        <StatusBadge status={result.status} />
        <span class="mono">{duration(result.durationMs)}</span>
        {result.traceId && (
          <a href={href.trace(result.traceId)} data-testid="call-trace">
            View its trace
          </a>
        )}
      </div>
      <details>
        <summary>{Object.keys(result.headers).length} response headers</summary>
        <table class="grid compact">
          <tbody>
            {Object.entries(result.headers).map(([name, value]) => (
              <tr key={name}>
                <td class="mono muted">{name}</td>
                <td class="mono">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      {result.bodyEncoding === "base64" && <p class="muted small">Binary body ({contentType || "no content type"}), shown as base64.</p>}
      {result.body === "" ? <p class="muted">Empty body.</p> : <pre class={`code body${body.json ? " json" : ""}`} data-testid="call-body">{body.text}</pre>}
    </section>
  );
}
