// `npm run lint:deps`: dependency-cruiser's JSON result on stdin (its run checks the rules of
// .dependency-cruiser.cjs), reported as `depcruise --output-type err-long` would, and one
// rule more that its rules cannot state: between sibling folders, imports go one way only.
// Its folder scope (`scope: "folder"`, `to: { circular: true }`) finds cycles among folders,
// but counts every file of a folder, tests included, and a rule at that scope matches on
// folder names alone; so the pairs are counted here, from the same result.
import { format } from "dependency-cruiser";
import { createRequire } from "node:module";
import { text } from "node:stream/consumers";

const { appFolders } = createRequire(import.meta.url)("./app-folders.cjs");

/**
 * Not counted: a test sits beside what it tests and may drive a neighbour to do so, and no
 * module imports a test, so its imports add no layer to the code.
 */
const isTest = (file) => /\.test\.ts$/.test(file);

/**
 * The two sibling folders an import crosses between, under the folders the two files share
 * ("a/b/c.ts" → "a/d/e/f.ts": "a/b" and "a/d"); none when either file lies directly in them.
 */
function siblings(from, to) {
  const a = from.split("/");
  const b = to.split("/");
  let shared = 0;
  while (shared < a.length - 1 && shared < b.length - 1 && a[shared] === b[shared]) shared++;
  if (shared === a.length - 1 || shared === b.length - 1) return null;
  return {
    parent: a.slice(0, shared).join("/"),
    from: a.slice(0, shared + 1).join("/"),
    to: b.slice(0, shared + 1).join("/"),
  };
}

/** "from → to" of sibling folders, with the imports that make it, from every module but tests. */
function folderImports(modules) {
  const found = new Map();
  for (const module of modules) {
    if (isTest(module.source)) continue;
    for (const dependency of module.dependencies) {
      if (!dependency.dependencyTypes.includes("local")) continue;
      const pair = siblings(module.source, dependency.resolved);
      if (!pair) continue;
      const key = `${pair.from} → ${pair.to}`;
      if (!found.has(key)) found.set(key, []);
      found.get(key).push(`${module.source} → ${dependency.resolved}`);
    }
  }
  return found;
}

/** Each pair of sibling folders that import each other, once, with an import each way. */
function twoWayPairs(imports) {
  const pairs = [];
  for (const [key, forth] of imports) {
    const [from, to] = key.split(" → ");
    const back = imports.get(`${to} → ${from}`);
    if (back && from < to) pairs.push({ from, to, forth: forth[0], back: back[0] });
  }
  return pairs;
}

const result = JSON.parse(await text(process.stdin));
const rules = await format(result, { outputType: "err-long" });
process.stdout.write(rules.output);

// package.json names the folders to cruise; one it forgets would have no walls, silently.
const cruised = new Set(result.modules.map((module) => module.source.split("/")[0]));
const unchecked = appFolders.filter((folder) => !cruised.has(folder));
for (const folder of unchecked) console.log(`\n  error unchecked-folder: ${folder}/ is in tsconfig.json but lint:deps (package.json) does not cruise it`);

const pairs = twoWayPairs(folderImports(result.modules));
for (const { from, to, forth, back } of pairs) {
  console.log(`\n  error one-way-folders: ${from} ⇄ ${to}\n    ${forth}\n    ${back}`);
}
if (pairs.length > 0) {
  console.log(
    `\n  one-way-folders: sibling folders import each other, ${pairs.length} pair(s). Between sibling folders imports go one way,` +
      "\n  so each folder can be read, tested and moved with what it imports and none of what imports it: move what both use to one side.\n",
  );
}
process.exitCode = rules.exitCode > 0 || pairs.length > 0 || unchecked.length > 0 ? 1 : 0;
