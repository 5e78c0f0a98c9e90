// A fresh clone's state without cloning: the checkout's files as they are now
// (uncommitted edits included, ignored files such as encore.gen/ and .data/ left
// out), with node_modules linked rather than copied, as after `npm ci`.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";

export function copyCheckout(from: string, to: string): void {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: from, encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
  for (const file of files) {
    const source = path.join(from, file);
    if (!existsSync(source)) continue; // deleted in the working tree, not yet committed
    mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    cpSync(source, path.join(to, file));
  }
  symlinkSync(path.join(from, "node_modules"), path.join(to, "node_modules"), "dir");
}
