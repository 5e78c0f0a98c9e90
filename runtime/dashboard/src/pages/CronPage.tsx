import type { CronRun, CronRunResult, CronState } from "../../../internal/dashboard/api.ts";
import { api } from "../api.ts";
import { Badge, type Tone } from "../components/Badge.tsx";
import { ErrorBox } from "../components/ErrorBox.tsx";
import { Empty, Loading, PageHeader } from "../components/PageHeader.tsx";
import { useAction } from "../components/useAction.ts";
import { dateTime, duration } from "../format.ts";
import { href } from "../router.ts";
import { useApi } from "../use-api.ts";

type Job = CronState["jobs"][number];

const tones: Record<CronRun["outcome"], Tone> = { running: "accent", succeeded: "ok", failed: "error", skipped: "muted", abandoned: "warn" };

/** The app's cron jobs: when they run next, how their last runs went, and a button to run one now. */
export function CronPage() {
  const { data, error, reload } = useApi<CronState>("/api/cron");
  return (
    <>
      <PageHeader title="Cron jobs" sub="Schedules are in UTC; times below are local.">
        <button type="button" class="secondary" onClick={reload}>
          Refresh
        </button>
      </PageHeader>
      <ErrorBox error={error} />
      {!data && !error && <Loading what="cron jobs" />}
      {data && !data.enabled && <p class="notice">This instance runs no jobs on schedule (CRON=off): “Run now” still runs one.</p>}
      {data && data.jobs.length === 0 && <Empty>The app declares no cron jobs.</Empty>}
      {data?.jobs.map((job) => (
        <JobCard key={job.name} job={job} onRun={reload} />
      ))}
    </>
  );
}

function JobCard({ job, onRun }: { job: Job; onRun(): void }) {
  const run = useAction(async () => {
    const result = await api<CronRunResult>(`/api/cron/${encodeURIComponent(job.name)}/run`, {});
    onRun();
    return result;
  });
  return (
    <section class="card" data-testid={`cron-${job.name}`} aria-labelledby={`cron-${job.name}-h`}>
      <div class="card-head">
        <h2 id={`cron-${job.name}-h`}>
          {job.title ?? job.name} {job.title && <span class="muted small mono">{job.name}</span>}
        </h2>
        <button type="button" disabled={run.running} onClick={() => void run.run()}>
          {run.running ? "Running…" : "Run now"}
        </button>
      </div>
      <dl class="facts">
        <div>
          <dt>service</dt>
          <dd>
            <a href={href.service(job.service)}>{job.service}</a>
          </dd>
        </div>
        <div>
          <dt>calls</dt>
          <dd class="mono">
            <a href={href.endpoint(job.endpoint.service, job.endpoint.name)}>
              {job.endpoint.service}.{job.endpoint.name}
            </a>
          </dd>
        </div>
        <div>
          <dt>schedule</dt>
          <dd class="mono">{job.schedule}</dd>
        </div>
        <div>
          <dt>next run</dt>
          <dd class="mono">{dateTime(job.nextRun)}</dd>
        </div>
      </dl>
      {run.result && (
        <div class="run-result row" data-testid="run-result" data-outcome={run.result.outcome}>
          <Badge tone={tones[run.result.outcome]}>{run.result.outcome}</Badge>
          <span class="mono">{duration(run.result.durationMs)}</span>
          {run.result.error && <span class="error-text">{run.result.error}</span>}
          {run.result.traceId && <a href={href.trace(run.result.traceId)}>View its trace</a>}
        </div>
      )}
      <ErrorBox error={run.error} title="Run now failed" />
      {job.lastRuns.length === 0 ? (
        <p class="muted small">No runs yet.</p>
      ) : (
        <table class="grid compact runs">
          <thead>
            <tr>
              <th>Started</th>
              <th>Outcome</th>
              <th>Trigger</th>
              <th class="num">Duration</th>
              <th>Error</th>
            </tr>
          </thead>
          <tbody>
            {job.lastRuns.slice(0, 5).map((r, i) => (
              <tr key={i}>
                <td class="mono">{dateTime(r.startedAt)}</td>
                <td>
                  <Badge tone={tones[r.outcome]}>{r.outcome}</Badge>
                </td>
                <td>{r.trigger}</td>
                <td class="num mono">{duration(r.durationMs)}</td>
                <td class="error-text">{r.error}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
