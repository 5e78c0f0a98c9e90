import { describe, expect, it } from "vitest";
import { fixture, lineOf, parseError } from "../../../test/parser-fixtures.ts";
import { parseApp } from "../mod.ts";

describe("cron jobs", () => {
  it("reads `every` and `schedule` jobs whose endpoints come from other files, sorted by name", () => {
    expect(parseApp(fixture("cron-jobs/valid")).cronJobs).toEqual([
      {
        name: "daily-report",
        title: null,
        service: "svc",
        endpoint: { service: "svc", name: "daily" },
        schedule: { kind: "cron", expression: "0 4 * * 1-5" },
        declaredIn: { file: "svc/jobs.ts", line: 7 },
      },
      {
        name: "purge-expired",
        title: "Purge expired links",
        service: "svc",
        endpoint: { service: "svc", name: "purge" },
        schedule: { kind: "every", minutes: 90 },
        declaredIn: { file: "svc/jobs.ts", line: 5 },
      },
    ]);
  });
});

interface Case {
  readonly fixture: string;
  /** Text on the line the error must point at, in `file` (svc/jobs.ts unless given). */
  readonly at: string;
  readonly file?: string;
  readonly message: string;
}

const CASES: readonly Case[] = [
  { fixture: "both", at: 'new CronJob("both"', message: 'cron job "both": expected either `every` or `schedule`, not both' },
  { fixture: "neither", at: 'new CronJob("neither"', message: 'cron job "neither": expected either `every` or `schedule`' },
  {
    fixture: "every-seconds",
    at: 'every: "90s"',
    message: 'the `every` of cron job "every-seconds" must be a whole number of minutes, at least 1m, not "90s"',
  },
  { fixture: "every-over-a-day", at: 'every: "25h"', message: 'the `every` of cron job "every-over-a-day" must be at most 24h, not "25h"' },
  {
    fixture: "every-not-dividing-a-day",
    at: 'every: "7h"',
    message: 'the `every` of cron job "every-not-dividing-a-day" must divide 24h evenly, not "7h"; use a `schedule` for other intervals',
  },
  {
    fixture: "schedule-six-fields",
    at: "schedule:",
    message: 'the `schedule` of cron job "schedule-six-fields" must have 5 fields (minute hour day-of-month month day-of-week), not 6: "0 0 4 * * *"',
  },
  {
    fixture: "schedule-four-fields",
    at: "schedule:",
    message: 'the `schedule` of cron job "schedule-four-fields" must have 5 fields (minute hour day-of-month month day-of-week), not 4: "0 4 * *"',
  },
  {
    fixture: "schedule-alias",
    at: "schedule:",
    message: 'the `schedule` of cron job "schedule-alias" must have 5 fields (minute hour day-of-month month day-of-week), not 1: "@daily"',
  },
  {
    fixture: "schedule-bad-value",
    at: "schedule:",
    message: 'the `schedule` of cron job "schedule-bad-value" is not a valid cron expression: Constraint error, got value 61 expected range 0-59',
  },
  {
    fixture: "schedule-hashed",
    at: "schedule:",
    message: 'the `schedule` of cron job "schedule-hashed" uses "H", which picks a different time in each process; write the values out',
  },
  {
    fixture: "endpoint-with-params",
    at: "endpoint: resend",
    message: 'the endpoint of cron job "resend" must take no parameters; svc.resend takes a request',
  },
  {
    fixture: "endpoint-raw",
    at: "endpoint: hook",
    message: 'the endpoint of cron job "raw-hook" must take no parameters; svc.hook is an api.raw endpoint',
  },
  { fixture: "endpoint-not-api", at: "endpoint: tick", message: 'the endpoint of cron job "plain-function" must be an api() endpoint' },
  {
    fixture: "duplicate-name",
    file: "svc/more.ts",
    at: 'new CronJob("nightly"',
    message: 'cron job "nightly" is already declared at svc/jobs.ts:6',
  },
  { fixture: "outside-service", file: "scheduled.ts", at: 'new CronJob("stray"', message: 'cron job "stray" must be declared inside a service' },
];

describe("cron jobs that break Encore's rules are refused, naming the job and the rule", () => {
  it.each(CASES)("$fixture", (testCase) => {
    const root = fixture(`cron-jobs/${testCase.fixture}`);
    const file = testCase.file ?? "svc/jobs.ts";
    const line = lineOf(root, file, testCase.at);
    expect(parseError(root).message).toBe(`${file}:${line}: ${testCase.message}`);
  });
});
