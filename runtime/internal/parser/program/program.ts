import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { runtimeDir } from "../../config/runtime-dir.mjs";
import { appFiles, type UnreadFile } from "./app-files.mjs";
import { ParseError, toAppPath } from "./errors.ts";

/** One ts.Program and TypeChecker over the whole app, shared by every parsing step. */
export interface AppProgram {
  /** Absolute path of the app root. */
  readonly appRoot: string;
  readonly program: ts.Program;
  readonly checker: ts.TypeChecker;
  /** The app's own source files, sorted by app-relative path so output order is stable. */
  readonly files: readonly ts.SourceFile[];
  /** The app's other source files, which Encore walks past without reading (unread-files.ts checks them). */
  readonly unread: readonly UnreadFile[];
}

const DEFAULT_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ES2022,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  skipLibCheck: true,
  allowImportingTsExtensions: true,
};

export function createAppProgram(appRoot: string): AppProgram {
  const root = path.resolve(appRoot);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) {
    throw new ParseError(`app root ${root} is not a directory`);
  }
  const { parsed, unread } = walkApp(root);
  const rootNames = parsed.filter((file) => !isToolConfig(file));
  const options: ts.CompilerOptions = {
    ...readCompilerOptions(root),
    noEmit: true,
    // Without strict null checks `T | null` and `x?: T` collapse to `T`, and the
    // schemas could no longer tell nullable and optional fields apart.
    strictNullChecks: true,
  };
  const program = ts.createProgram({ rootNames, options, host: withoutRuntimeCode(cachingHost(options), root) });
  const wanted = new Set(rootNames.map((name) => path.normalize(name)));
  const files = program
    .getSourceFiles()
    .filter((file) => wanted.has(path.normalize(file.fileName)))
    .sort((a, b) => compareText(toAppPath(root, a.fileName), toAppPath(root, b.fileName)));
  return { appRoot: root, program, checker: program.getTypeChecker(), files, unread };
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The app's files as Encore's parser walks them (app-files.mjs), leaving out this runtime's
 * own package when the app holds it (a workspace checkout, where node_modules/encore-selfhost
 * links to it): it is the runtime, as much as node_modules is not the app.
 */
export function walkApp(root: string): { parsed: string[]; unread: UnreadFile[] } {
  return appFiles(root, { skip: [runtimeDir()] });
}

/** The app's source files: the .ts files the parser reads (tool configs included) and the others it only checks. */
export function listSourceFiles(root: string): string[] {
  const { parsed, unread } = walkApp(root);
  return [...parsed, ...unread.map((u) => u.file)].sort(compareText);
}

/**
 * A tool's configuration (vitest.config.ts, drizzle.config.ts) is not app code and never
 * runs in the app; parsing it would pull the tool's own types in (vite's and vitest's: a
 * fifth of the parse time of this repository's app). Kept when it imports from Encore.
 */
function isToolConfig(file: string): boolean {
  return /\.config\.[cm]?tsx?$/.test(file) && !/["'](encore\.dev|~encore)(\/[^"']*)?["']/.test(fs.readFileSync(file, "utf8"));
}

/** The app's own tsconfig decides module resolution, so `encore.dev` resolves as in the editor. */
function readCompilerOptions(root: string): ts.CompilerOptions {
  const configPath = path.join(root, "tsconfig.json");
  if (!fs.existsSync(configPath)) return DEFAULT_OPTIONS;
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) {
    throw new ParseError(`tsconfig.json: ${flatten(read.error)}`, "tsconfig.json");
  }
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, configPath);
  // "No inputs were found" only concerns the config's include list, which is not used here.
  const problems = parsed.errors.filter((d) => d.code !== 18003);
  if (problems.length > 0) {
    throw new ParseError(`tsconfig.json: ${problems.map(flatten).join("; ")}`, "tsconfig.json");
  }
  return parsed.options;
}

/**
 * Library files (the standard lib, @types, encore.dev) are most of the parsing work and
 * do not change between parses in one process (tests, watch mode), so their syntax trees
 * are shared. TypeScript's language service shares them across programs the same way.
 */
const librarySourceFiles = new Map<string, { readonly mtimeMs: number; readonly file: ts.SourceFile }>();

function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const parse = host.getSourceFile.bind(host);
  // Options that change how a file is parsed or bound must not share trees.
  const settings = [options.target, options.module, options.moduleResolution, options.strict, options.alwaysStrict, options.jsx].join(",");
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (!/[\\/]node_modules[\\/]/.test(fileName)) return parse(fileName, languageVersion, onError, shouldCreate);
    const format = typeof languageVersion === "object" ? languageVersion : { languageVersion };
    const key = `${fileName}|${format.languageVersion}|${format.impliedNodeFormat ?? ""}|${settings}`;
    const mtimeMs = fs.statSync(fileName, { throwIfNoEntry: false })?.mtimeMs ?? -1;
    const cached = librarySourceFiles.get(key);
    if (cached && cached.mtimeMs === mtimeMs) return cached.file;
    const file = parse(fileName, languageVersion, onError, shouldCreate);
    if (file) librarySourceFiles.set(key, { mtimeMs, file });
    return file;
  };
  return host;
}

/**
 * This runtime's own code, when the app holds the runtime's package (a workspace checkout)
 * and code beside the app imports it (benchmarks, test helpers: this repository's do),
 * is read as empty. None of it is app code or can declare anything (Encore declarations
 * come from encore.dev, whose implementation here, runtime/encore.dev, is still read), and
 * reading it all, with the types of its own dependencies, was a third of the parse time.
 * Fixture apps inside the runtime's folder read everything.
 */
function withoutRuntimeCode(host: ts.CompilerHost, appRoot: string): ts.CompilerHost {
  const runtime = runtimeDir();
  if (isWithin(appRoot, runtime)) return host;
  const parse = host.getSourceFile.bind(host);
  const face = path.join(runtime, "encore.dev");
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const file = path.resolve(fileName);
    if (isWithin(file, runtime) && !isWithin(file, face) && !isWithin(file, path.join(runtime, "node_modules"))) {
      return ts.createSourceFile(fileName, "", languageVersion);
    }
    return parse(fileName, languageVersion, onError, shouldCreate);
  };
  return host;
}

function isWithin(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

function flatten(diagnostic: ts.Diagnostic): string {
  return ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
}
