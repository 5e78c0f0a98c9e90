import { runtimeDir } from "../config/runtime-dir.mjs";

/** One frame as Encore writes it: the file relative to the working folder, the line, the function (null when anonymous). */
export interface StackFrame {
  file: string;
  line: number;
  func: string | null;
}

/**
 * The error's JavaScript stack for `stack` in error answers (config/error-extras-config.ts),
 * as Encore's runtime reads it (runtimes/js/src/log.rs): the "at …" lines, without Node's own frames, frames with no file, and the SDK's frames
 * (Encore drops node_modules/encore.dev/; here, this runtime's folder too).
 */
export function stackOf(err: Error, cwd = process.cwd()): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const line of (err.stack ?? "").split("\n")) {
    const frame = frameOf(line.trim());
    if (frame && !isCommonFrame(frame.file)) frames.push({ ...frame, file: relativeTo(cwd, frame.file) });
  }
  return frames;
}

function frameOf(line: string): StackFrame | null {
  if (!line.startsWith("at ")) return null;
  const rest = line.slice(3).trimStart();
  let func: string | null = null;
  let location = rest;
  if (rest.endsWith(")")) {
    const open = rest.lastIndexOf("(");
    if (open < 0) return null;
    func = rest.slice(0, open).trim();
    location = rest.slice(open + 1, -1);
  }
  const parsed = fileLineOf(location);
  if (!parsed) return null;
  return { file: parsed.file, line: parsed.line, func };
}

function relativeTo(cwd: string, file: string): string {
  const prefix = `${cwd}/`;
  return file.startsWith(prefix) ? file.slice(prefix.length) : file;
}

// "<file>:<line>:<column>" or "<file>:<line>", split at the first colon as Encore does (after file://).
function fileLineOf(location: string): { file: string; line: number } | null {
  const text = location.startsWith("file://") ? location.slice("file://".length) : location;
  const colon = text.indexOf(":");
  if (colon < 0) return null;
  const [line, column] = text.slice(colon + 1).split(":");
  if (!/^\d+$/.test(line ?? "") || (column !== undefined && !/^\d+$/.test(column))) return null;
  return { file: text.slice(0, colon).trim(), line: Number(line) };
}

let runtimeFolder: string | undefined;

function isCommonFrame(file: string): boolean {
  runtimeFolder ??= `${runtimeDir()}/`;
  return (
    file === "" ||
    file.startsWith("node:") ||
    file.includes("node_modules/encore.dev/") ||
    file.includes("node_modules/encore-selfhost/") ||
    file.startsWith(runtimeFolder)
  );
}
