// encore.dev/log: structured logging, backed by pino.
import type { Logger as PinoLogger } from "pino";
import { rootLogger } from "../../internal/log/root.ts";
import { recorder } from "../../internal/tracing/mod.ts";

export type FieldValue = string | number | boolean | null | undefined | FieldsObject | FieldValue[];
export type FieldsObject = { [key: string]: FieldValue };

export enum LogLevel {
  Trace = 1,
  Debug = 2,
  Info = 3,
  Warn = 4,
  Error = 5,
}

const pinoLevel: Record<LogLevel, string> = {
  [LogLevel.Trace]: "trace",
  [LogLevel.Debug]: "debug",
  [LogLevel.Info]: "info",
  [LogLevel.Warn]: "warn",
  [LogLevel.Error]: "error",
};

type Method = "trace" | "debug" | "info" | "warn" | "error";

class Logger {
  // Resolved on first log, so importing encore.dev/log never reads configuration.
  #impl: (() => PinoLogger) | PinoLogger;

  constructor(impl: () => PinoLogger) {
    this.#impl = impl;
  }

  private get impl(): PinoLogger {
    if (typeof this.#impl === "function") this.#impl = this.#impl();
    return this.#impl;
  }

  withLevel(level: LogLevel): Logger {
    return new Logger(() => this.impl.child({}, { level: pinoLevel[level] }));
  }

  with(fields: FieldsObject): Logger {
    return new Logger(() => this.impl.child(fields));
  }

  trace(msg: string, fields?: FieldsObject): void {
    this.log("trace", msg, fields);
  }
  debug(msg: string, fields?: FieldsObject): void {
    this.log("debug", msg, fields);
  }
  info(msg: string, fields?: FieldsObject): void {
    this.log("info", msg, fields);
  }
  warn(err: Error | unknown, fields?: FieldsObject): void;
  warn(err: Error | unknown, msg: string, fields?: FieldsObject): void;
  warn(msg: string, fields?: FieldsObject): void;
  warn(errOrMsg: unknown, msgOrFields?: unknown, fields?: unknown): void {
    this.log("warn", errOrMsg, msgOrFields, fields);
  }
  error(err: Error | unknown, fields?: FieldsObject): void;
  error(err: Error | unknown, msg: string, fields?: FieldsObject): void;
  error(msg: string, fields?: FieldsObject): void;
  error(errOrMsg: unknown, msgOrFields?: unknown, fields?: unknown): void {
    this.log("error", errOrMsg, msgOrFields, fields);
  }

  // Accepts the three call shapes encore.dev allows: (msg, fields), (err, msg, fields), (err, fields).
  private log(method: Method, errOrMsg: unknown, msgOrFields?: unknown, maybeFields?: unknown): void {
    const impl = this.impl;
    if (typeof errOrMsg === "string") {
      const fields = (msgOrFields as FieldsObject | undefined) ?? {};
      impl[method](fields, errOrMsg);
      if (recorder !== null) traceLine(impl, method, errOrMsg, fields);
      return;
    }
    const err = errOrMsg instanceof Error ? errOrMsg : errOrMsg == null ? undefined : new Error(String(errOrMsg));
    const msg = typeof msgOrFields === "string" ? msgOrFields : (err?.message ?? "");
    const fields = { ...((typeof msgOrFields === "string" ? maybeFields : msgOrFields) as FieldsObject | undefined), err };
    impl[method](fields, msg);
    if (recorder !== null) traceLine(impl, method, msg, fields);
  }
}

/** The line in the active trace, with the logger's own fields (`with`), when its level lets it out, as Encore does. */
function traceLine(impl: PinoLogger, method: Method, msg: string, fields: Readonly<Record<string, unknown>>): void {
  if (impl.isLevelEnabled(method)) recorder?.log(method, msg, { ...impl.bindings(), ...fields });
}

export type { Logger };

const log = new Logger(rootLogger);
export default log;

export const trace = (msg: string, fields?: FieldsObject) => log.trace(msg, fields);
export const debug = (msg: string, fields?: FieldsObject) => log.debug(msg, fields);
export const info = (msg: string, fields?: FieldsObject) => log.info(msg, fields);
export const warn = (msg: string, fields?: FieldsObject) => log.warn(msg, fields);
export const error = (msg: string, fields?: FieldsObject) => log.error(msg, fields);
