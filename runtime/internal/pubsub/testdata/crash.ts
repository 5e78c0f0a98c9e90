// Shared by the crash tests: run the hanging subscriber, kill it mid-delivery,
// and hand back the id of the message it was handling.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "hanging-subscriber.ts");

export async function killMidDelivery(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const id = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c) => {
      out += c;
      const found = /handling (\S+)/.exec(out)?.[1];
      if (found) resolve(found);
    });
    child.once("exit", (code) => reject(new Error(`subscriber exited early (${code}): ${out}`)));
  });
  child.kill("SIGKILL");
  await new Promise((r) => child.once("exit", r));
  return id;
}

/** Waits until `check` holds or `ms` pass. */
export async function waitFor(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}
