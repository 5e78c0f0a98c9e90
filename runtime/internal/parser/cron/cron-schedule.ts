import { CronExpressionParser } from "cron-parser";
import type ts from "typescript";
import { parseDuration } from "../../duration/duration.ts";
import type { CronSchedule } from "../../meta/types.ts";
import { errorAt } from "../program/errors.ts";
import { literalValue } from "../program/literals.ts";

const MINUTE_MS = 60_000;
const DAY_MINUTES = 24 * 60;
// Durations are summed in floating-point milliseconds ("0.1h"), so "whole minutes" allows for rounding.
const TOLERANCE_MINUTES = 1e-9;
// cron-parser's "H" picks a value with Math.random unless seeded, so each process would run the job at another time.
const HASHED_FIELD = /(?<![A-Za-z])H(?![A-Za-z])/;

/** A job and the app root, for error messages. */
export interface JobContext {
  readonly appRoot: string;
  readonly name: string;
}

/**
 * `every: "30m"`: runs at each multiple of the interval since midnight UTC, so the
 * interval must be whole minutes and divide 24 h (as in Encore).
 */
export function everySchedule(job: JobContext, node: ts.Expression): CronSchedule {
  const what = `the \`every\` of cron job "${job.name}"`;
  const text = literalValue(node);
  if (typeof text !== "string") {
    throw errorAt(job.appRoot, node, `${what} must be a string literal duration such as "30m" or "1h"`);
  }
  let ms: number;
  try {
    ms = parseDuration(text, what);
  } catch (error) {
    throw errorAt(job.appRoot, node, (error as Error).message);
  }
  const minutes = Math.round(ms / MINUTE_MS);
  if (minutes < 1 || Math.abs(ms / MINUTE_MS - minutes) > TOLERANCE_MINUTES) {
    throw errorAt(job.appRoot, node, `${what} must be a whole number of minutes, at least 1m, not "${text}"`);
  }
  if (minutes > DAY_MINUTES) throw errorAt(job.appRoot, node, `${what} must be at most 24h, not "${text}"`);
  if (DAY_MINUTES % minutes !== 0) {
    throw errorAt(job.appRoot, node, `${what} must divide 24h evenly, not "${text}"; use a \`schedule\` for other intervals`);
  }
  return { kind: "every", minutes };
}

/** `schedule: "0 4 * * *"`: a 5-field cron expression, read in UTC, stored with single spaces. */
export function cronSchedule(job: JobContext, node: ts.Expression): CronSchedule {
  const what = `the \`schedule\` of cron job "${job.name}"`;
  const text = literalValue(node);
  if (typeof text !== "string") throw errorAt(job.appRoot, node, `${what} must be a string literal cron expression`);
  const fields = text.trim().split(/\s+/).filter((field) => field !== "");
  if (fields.length !== 5) {
    throw errorAt(job.appRoot, node, `${what} must have 5 fields (minute hour day-of-month month day-of-week), not ${fields.length}: "${text}"`);
  }
  const expression = fields.join(" ");
  if (HASHED_FIELD.test(expression)) {
    throw errorAt(job.appRoot, node, `${what} uses "H", which picks a different time in each process; write the values out`);
  }
  try {
    CronExpressionParser.parse(expression, { tz: "UTC" });
  } catch (error) {
    throw errorAt(job.appRoot, node, `${what} is not a valid cron expression: ${(error as Error).message}`);
  }
  return { kind: "cron", expression };
}
