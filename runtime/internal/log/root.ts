import { pino, type Logger as PinoLogger } from "pino";
import { config } from "../config/mod.ts";

let root: PinoLogger | undefined;

/** The process's one pino logger; JSON lines on stdout, level from LOG_LEVEL. */
export function rootLogger(): PinoLogger {
  root ??= pino({ level: config().logLevel, base: undefined });
  return root;
}
