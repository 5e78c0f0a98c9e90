// compose.yaml, .env.example and deploy/Caddyfile, checked without Docker: every variable the
// compose file takes from .env is listed in .env.example and every one listed there is used;
// what the replicas are given is what the runtime or the app reads (documented in
// docs/configuration.md and read by their code); the two replicas are one image with one
// environment, which has what production requires; every bucket the app declares is created.
// `docker-compose config` checks the file's format; this checks its meaning against the tree.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

// js-yaml has no type declarations: this is the part used here. Its default schema resolves
// anchors and `<<` merge keys, as Compose does.
const { load } = createRequire(import.meta.url)("js-yaml") as { load(text: string): unknown };
const { appFolders } = createRequire(import.meta.url)("../tools/app-folders.cjs") as { appFolders: string[] };

type Environment = Record<string, string>;
interface Service {
  image?: string;
  build?: unknown;
  environment?: unknown;
  depends_on?: unknown;
  command?: unknown;
}

const compose = load(read("compose.yaml")) as { services: Record<string, Service> };
const caddyfile = read("deploy/Caddyfile");
const example = envFileNames(read(".env.example"));

/** NAME of each NAME=value line; comments and blank lines skipped, anything else refused. */
function envFileNames(text: string): string[] {
  const names: string[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(line);
    if (!m) throw new Error(`.env.example: not a NAME=value line: ${line}`);
    names.push(m[1]!);
  }
  return names;
}

/** The value of NAME in .env.example. */
function exampleValue(name: string): string | undefined {
  const line = read(".env.example")
    .split("\n")
    .find((l) => l.startsWith(`${name}=`));
  return line?.slice(name.length + 1);
}

/** Each variable a Compose string interpolates: ${NAME}, ${NAME:-x}, ${NAME:?x} or $NAME; $$ is a literal $. */
function interpolations(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(/\$(\$|\{([A-Za-z_][A-Za-z0-9_]*)[^}]*\}|([A-Za-z_][A-Za-z0-9_]*))/g)) {
    if (m[1] !== "$") names.push((m[2] ?? m[3])!);
  }
  return names;
}

/** Every string value under `value`: Compose interpolates values, not keys. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

const referenced = new Set(strings(compose).flatMap(interpolations));

function service(name: string): Service {
  const found = compose.services[name];
  if (!found) throw new Error(`compose.yaml has no service ${name}`);
  return found;
}

function environmentOf(name: string): Environment {
  const env = service(name).environment;
  if (env === null || typeof env !== "object" || Array.isArray(env)) throw new Error(`compose.yaml: ${name}'s environment must be a mapping`);
  return env as Environment;
}

/** The .ts files under the folders, tests left out: the code that runs. */
function sourceFiles(folders: readonly string[]): string[] {
  return folders.flatMap((folder) =>
    (readdirSync(path.join(root, folder), { recursive: true }) as string[])
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.endsWith(".d.ts") && !file.split(path.sep).includes("testdata"))
      .map((file) => path.join(folder, file)),
  );
}

const appSources = sourceFiles(appFolders).map(read).join("\n");
const runtimeSources = sourceFiles(["runtime/internal"]).map(read).join("\n");

/** The names in the first column of docs/configuration.md's tables of the runtime, the app and the secrets. */
function documentedVariables(): Set<string> {
  const page = read("docs/configuration.md");
  const names = new Set<string>();
  for (const heading of ["## The runtime", "## The app", "## Secrets"]) {
    const start = page.indexOf(`\n${heading}\n`);
    if (start < 0) throw new Error(`docs/configuration.md has no section "${heading}"`);
    const end = page.indexOf("\n## ", start + 1);
    for (const line of page.slice(start, end < 0 ? undefined : end).split("\n")) {
      if (!line.startsWith("| `")) continue;
      const firstCell = line.split("|")[1]!;
      for (const m of firstCell.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)) names.add(m[1]!);
    }
  }
  return names;
}

/** Whether code reads the variable: env.NAME, env["NAME"], a setting named "NAME", secret("NAME"). */
function readBy(sources: string, name: string): boolean {
  return new RegExp(`env\\.${name}\\b|["'\`]${name}["'\`]`).test(sources);
}

/** The secrets the app declares with secret("Name") from encore.dev/config. */
const appSecrets = [...appSources.matchAll(/\bsecret\(\s*["'`]([A-Za-z_][A-Za-z0-9_]*)["'`]\s*\)/g)].map((m) => m[1]!);

/** The buckets the app declares with new Bucket("name", ...). */
const appBuckets = [...appSources.matchAll(/\bnew Bucket\(\s*["'`]([a-z0-9.-]+)["'`]/g)].map((m) => m[1]!);

describe(".env.example against compose.yaml", () => {
  test("every variable compose.yaml takes from the environment is listed in .env.example", () => {
    expect(referenced.size).toBeGreaterThan(0);
    expect([...referenced].filter((name) => !example.includes(name))).toEqual([]);
  });

  test("every variable .env.example lists is used by compose.yaml (which passes on only what it names)", () => {
    expect(example.filter((name) => !referenced.has(name))).toEqual([]);
  });

  test(".env.example lists each variable once", () => {
    expect(example.filter((name, i) => example.indexOf(name) !== i)).toEqual([]);
  });

  test(".env.example holds no secret: passwords, secret keys and the app's secrets are left for the operator to make", () => {
    const secrets = example.filter((name) => /password|secret|token/i.test(name) || appSecrets.includes(name));
    expect(secrets).toEqual(expect.arrayContaining(appSecrets));
    expect(secrets.filter((name) => exampleValue(name) !== "")).toEqual([]);
  });
});

describe("what the services are given", () => {
  test("every variable of the replicas is the runtime's or the app's: documented in docs/configuration.md, and read by their code", () => {
    const documented = documentedVariables();
    const names = Object.keys(environmentOf("app1"));
    expect(names.filter((name) => !documented.has(name))).toEqual([]);
    expect(names.filter((name) => !readBy(runtimeSources, name) && !readBy(appSources, name))).toEqual([]);
  });

  test("Caddy is given exactly the variables deploy/Caddyfile reads", () => {
    const placeholders = [...caddyfile.matchAll(/\{\$([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
    expect(placeholders.length).toBeGreaterThan(0);
    expect(Object.keys(environmentOf("caddy")).sort()).toEqual([...new Set(placeholders)].sort());
  });

  test("the two replicas are one image with one environment and the same dependencies", () => {
    const [app1, app2] = [service("app1"), service("app2")];
    expect(Object.keys(environmentOf("app1")).length).toBeGreaterThan(0);
    expect(environmentOf("app2")).toEqual(environmentOf("app1"));
    expect(app1.image).toBeTruthy();
    expect(app2.image).toBe(app1.image);
    expect(app1.build).toBe("encore.gen/deploy");
    expect(app2.build).toEqual(app1.build);
    expect(app2.depends_on).toEqual(app1.depends_on);
  });

  test("the replicas have what production requires: DATABASE_URL, the app's secrets, and objects off the container", () => {
    const env = environmentOf("app1");
    expect(env.NODE_ENV).toBe("production");
    expect(env.DATABASE_URL).toMatch(/^postgres(ql)?:\/\/.*@postgres:5432\//);
    // Each secret the app declares, required: Compose stops with a message when .env lacks it.
    expect(appSecrets.length).toBeGreaterThan(0);
    for (const name of appSecrets) expect(env[name], name).toMatch(new RegExp(`^\\$\\{${name}:\\?`));
    // In production the runtime keeps no object in the container's own filesystem.
    if (env.OBJECTS_PROVIDER === "s3") {
      expect(env.OBJECTS_S3_ENDPOINT).toBeTruthy();
      expect(env.OBJECTS_S3_ACCESS_KEY_ID).toBeTruthy();
      expect(env.OBJECTS_S3_SECRET_ACCESS_KEY).toBeTruthy();
    } else {
      expect(env.DATA_DIR).toBeTruthy();
      expect(env.OBJECTS_SIGNING_KEY).toBeTruthy();
    }
  });

  test("every bucket the app declares is created in MinIO by minio-init", () => {
    const script = strings(service("minio-init").command).join("\n");
    expect(appBuckets.length).toBeGreaterThan(0);
    for (const bucket of appBuckets) expect(script, bucket).toMatch(new RegExp(`^mc mb --ignore-existing store/${bucket.replace(/\./g, "\\.")}$`, "m"));
  });
});
