// The docker CLI, for the image suite: commands that fail throw with their output, and the
// app's containers run on the host's network, beside the machine's PostgreSQL, NATS and Redis.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Runs `docker ...args`; its stdout. Throws with stderr when it fails. */
export async function docker(...args: string[]): Promise<string> {
  try {
    const { stdout } = await run("docker", args, { maxBuffer: 64 * 1024 * 1024 });
    return stdout.trim();
  } catch (err) {
    const { stderr, stdout } = err as { stderr?: string; stdout?: string };
    throw new Error(`docker ${args.join(" ")} failed: ${stderr || stdout || (err as Error).message}`, { cause: err });
  }
}

/** Runs `command` in `cwd`, with the output in the error when it fails. */
export async function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  try {
    const { stdout } = await run(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return stdout.trim();
  } catch (err) {
    const { stderr, stdout } = err as { stderr?: string; stdout?: string };
    throw new Error(`${command} ${args.join(" ")} (in ${cwd}) failed: ${stderr || stdout || (err as Error).message}`, { cause: err });
  }
}

export interface Replica {
  readonly name: string;
  readonly port: number;
  readonly url: string;
}

export interface ReplicaOptions {
  readonly image: string;
  readonly name: string;
  readonly port: number;
  /** The docker volume mounted at /app/.data, DATA_DIR: objects and click journals every replica shares. */
  readonly volume: string;
  /**
   * The container's host name: the replica's place behind the proxy, kept by the container
   * that replaces it, which replays only click journals of its own host name.
   */
  readonly hostname: string;
  readonly env: Record<string, string>;
}

/** Starts a container of the app on the host's network at `port`; resolves once GET /healthz answers 200. */
export async function startReplica(options: ReplicaOptions): Promise<Replica> {
  const env = { ...options.env, PORT: String(options.port), DATA_DIR: "/app/.data" };
  await docker(
    "run", "--detach", "--name", options.name, "--hostname", options.hostname, "--network", "host", "--stop-timeout", "30",
    "--volume", `${options.volume}:/app/.data`,
    ...Object.entries(env).flatMap(([k, v]) => ["--env", `${k}=${v}`]),
    options.image,
  );
  const replica = { name: options.name, port: options.port, url: `http://127.0.0.1:${options.port}` };
  await untilReady(replica);
  return replica;
}

/** Waits for GET /healthz to answer 200 (migrated, every database answering); fails with the container's log after a minute. */
export async function untilReady(replica: Replica, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    const state = await docker("inspect", "--format", "{{.State.Status}}", replica.name);
    if (state === "exited") break;
    const status = await fetch(`${replica.url}/healthz`, { signal: AbortSignal.timeout(2000) }).then((r) => r.status, () => 0);
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${replica.name} did not become ready:\n${await logsOf(replica.name)}`);
}

/** What `docker stop` does to a replica (SIGTERM, then up to 30 s): its exit code. */
export async function stopReplica(name: string): Promise<number> {
  await docker("stop", name);
  return Number(await docker("inspect", "--format", "{{.State.ExitCode}}", name));
}

export async function logsOf(name: string): Promise<string> {
  return run("docker", ["logs", name], { maxBuffer: 64 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => `${stdout}${stderr}`,
    (err: Error) => err.message,
  );
}

/** Removes containers and volumes, whether or not they exist. */
export async function removeAll(containers: readonly string[], volumes: readonly string[] = []): Promise<void> {
  for (const name of containers) await docker("rm", "--force", "--volumes", name).catch(() => {});
  for (const name of volumes) await docker("volume", "rm", "--force", name).catch(() => {});
}

/**
 * A named volume whose root the image's node user (uid 1000) owns, as a fresh volume over
 * the image's own /app/.data would be; an image built before /app/.data existed in it
 * (the previous release) would otherwise get a root-owned folder it cannot write.
 */
export async function createVolume(name: string, image: string): Promise<void> {
  await docker("volume", "create", name);
  await docker("run", "--rm", "--user", "root", "--volume", `${name}:/data`, "--entrypoint", "chown", image, "1000:1000", "/data");
}
