import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { ParseError, toAppPath } from "./errors.ts";

/** One ts.Program and TypeChecker over the whole app, shared by every parsing step. */
export interface AppProgram {
  /** Absolute path of the app root. */
  readonly appRoot: string;
  readonly program: ts.Program;
  readonly checker: ts.TypeChecker;
  /** The app's own source files, sorted by app-relative path so output order is stable. */
  readonly files: readonly ts.SourceFile[];
}

/** Folders that never hold app source, at any depth. */
const SKIPPED_ANYWHERE = new Set(["node_modules", "encore.gen", ".data"]);

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
  const rootNames = listSourceFiles(root);
  const options: ts.CompilerOptions = {
    ...readCompilerOptions(root),
    noEmit: true,
    // Without strict null checks `T | null` and `x?: T` collapse to `T`, and the
    // schemas could no longer tell nullable and optional fields apart.
    strictNullChecks: true,
  };
  const program = ts.createProgram({ rootNames, options, host: cachingHost(options) });
  const wanted = new Set(rootNames.map((name) => path.normalize(name)));
  const files = program
    .getSourceFiles()
    .filter((file) => wanted.has(path.normalize(file.fileName)))
    .sort((a, b) => compareText(toAppPath(root, a.fileName), toAppPath(root, b.fileName)));
  return { appRoot: root, program, checker: program.getTypeChecker(), files };
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The app's own TypeScript files (tests, declarations and tool configs aside), absolute and sorted. */
export function listSourceFiles(root: string): string[] {
  const found: string[] = [];
  const visit = (dir: string): void => {
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name.startsWith(".") || SKIPPED_ANYWHERE.has(entry.name)) continue;
        if (isOtherPackage(full)) continue;
        visit(full);
      } else if (entry.isFile() && isAppSourceName(entry.name) && !isToolConfig(full)) {
        found.push(full);
      }
    }
  };
  visit(root);
  return found.sort(compareText);
}

/**
 * A folder below the root with its own package.json is another package: a workspace
 * member such as this runtime, a front end, a benchmark. Its TypeScript is not the app's.
 */
export function isOtherPackage(dir: string): boolean {
  return fs.existsSync(path.join(dir, "package.json"));
}

function isAppSourceName(name: string): boolean {
  if (!/\.tsx?$/.test(name) || name.endsWith(".d.ts")) return false;
  return !/\.(test|spec)\.tsx?$/.test(name);
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

function flatten(diagnostic: ts.Diagnostic): string {
  return ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
}
