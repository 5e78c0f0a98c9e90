// The images the suite runs: this working tree's, built as a user builds it (encore-selfhost
// build, then docker build on the folder it writes), and the previous release's, built the
// same way from its commit, for the upgrade. Built once per run, in the project's global setup.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { docker, sh } from "./docker.ts";

const root = path.resolve(import.meta.dirname, "../../..");

/**
 * The previous release: main as the first image of it was built and run (no version is
 * tagged yet; when one is, it takes this place). Its databases lack the migrations made
 * since, so starting this tree's image on its data migrates them.
 */
export const previousRelease = "75f8717";

/** The base image the Dockerfile names by default, which CI stands in for (tools/docker/local-node-image.sh). */
export const baseImage = "node:20-slim";

export interface Images {
  readonly current: string;
  readonly previous: string;
}

export async function buildImages(): Promise<Images> {
  const base = await docker("image", "inspect", "--format", "{{.Id}}", baseImage).catch(() => "");
  if (!base) throw new Error(`the base image ${baseImage} is missing: pull it, or build a local stand-in with tools/docker/local-node-image.sh`);
  const current = "url-shortener:test-current";
  await buildFrom(root, current);
  const previous = `url-shortener:${previousRelease}`;
  // A commit's image never changes: kept between runs.
  if (!(await docker("image", "inspect", previous).then(() => true, () => false))) await buildPrevious(previous);
  return { current, previous };
}

/** `encore-selfhost build` in `appRoot`, then `docker build` of the folder it wrote. */
async function buildFrom(appRoot: string, tag: string): Promise<void> {
  const out = mkdtempSync(path.join(tmpdir(), "deploy-"));
  try {
    await sh("node", ["frontend/build.mjs"], appRoot);
    await sh("npx", ["encore-selfhost", "build", "--out", out], appRoot);
    await docker("build", "--quiet", "--tag", tag, out);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function buildPrevious(tag: string): Promise<void> {
  const known = await sh("git", ["cat-file", "-t", previousRelease], root).catch(() => "");
  if (known !== "commit") throw new Error(`commit ${previousRelease} (the previous release) is not in this clone: fetch main's history (git fetch --unshallow)`);
  const checkout = mkdtempSync(path.join(tmpdir(), "previous-release-"));
  try {
    await sh("sh", ["-c", `git archive ${previousRelease} | tar -x -C "${checkout}"`], root);
    await sh("npm", ["ci", "--no-audit", "--no-fund"], checkout);
    if (!existsSync(path.join(checkout, "encore.app"))) throw new Error(`${previousRelease} holds no Encore app`);
    await buildFrom(checkout, tag);
  } finally {
    rmSync(checkout, { recursive: true, force: true });
  }
}
