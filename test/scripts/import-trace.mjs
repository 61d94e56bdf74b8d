// Follows a controller's local imports from one file, depth first, and counts how often the walk comes back into a
// folder it had already left: a measure of how scattered a concern is (issue 35, "one shape for every controller").
// Not part of any product or test run.
//
//   node test/scripts/import-trace.mjs [entry] [--types] [--verbose]
//   (entry: controllers/workload/src/reconcile/reconcile.ts by default)
//
// What counts: relative imports and re-exports between files under the entry's `src/` (no packages, no node: modules,
// no tests). `--types` also follows `import type` / `export type`, which carry no code and are left out by default.
// Each file is visited once, its imports in the order they are written, as a reader would follow them.
// What it reports:
//   files visited: the distinct files the walk reaches from the entry, the entry included.
//   returns into a folder already left: a folder is "left" once the walk has been in it and moved to another folder.
//     Every import edge that leads from one folder into another folder already left is a return, whether or not the
//     file it names was visited already; the returns that reach a file not visited yet (the walk had to go back for
//     more of that folder) are counted apart.
//   imports of a file already left: every import edge to a file the walk visited before and has finished (its own
//     imports all followed), in any folder; an import of a file still being walked (a cycle) is not one.
// docs/architecture.md (the workload controller) gives the counts for the default entry.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

const args = process.argv.slice(2);
const entry = resolve(args.find((arg) => !arg.startsWith('--')) ?? 'controllers/workload/src/reconcile/reconcile.ts');
const followTypes = args.includes('--types');
const verbose = args.includes('--verbose');
const root = entry.slice(0, entry.lastIndexOf('/src/') + '/src/'.length);

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;

/** The local files `file` imports, in the order they are written. */
function localImports(file, types) {
  const found = [];
  for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    if (match[1] !== undefined && !types) continue;
    const target = resolve(dirname(file), match[2].replace(/\.js$/, '.ts'));
    if (target.startsWith(root) && !found.includes(target)) found.push(target);
  }
  return found;
}

const folderOf = (file) => dirname(relative(root, file));
const name = (file) => relative(root, file);
const visited = new Set();
const finished = new Set();
const left = new Set();
const lines = [];
let returns = 0;
let returnsForNewFiles = 0;
let fileReturns = 0;
const byPair = new Map();

function walk(file, depth) {
  visited.add(file);
  if (verbose) lines.push(`${'  '.repeat(depth)}${name(file)}`);
  const here = folderOf(file);
  for (const next of localImports(file, followTypes)) {
    const there = folderOf(next);
    const seen = visited.has(next);
    if (finished.has(next)) fileReturns += 1;
    if (there !== here && left.has(there)) {
      returns += 1;
      if (!seen) returnsForNewFiles += 1;
      const pair = `${here} -> ${there}`;
      byPair.set(pair, (byPair.get(pair) ?? 0) + 1);
      if (verbose) lines.push(`${'  '.repeat(depth + 1)}<- return into ${there}/: ${name(next)}${seen ? ' (seen)' : ''}`);
    }
    if (seen) continue;
    if (there !== here) left.add(here);
    walk(next, depth + 1);
    if (there !== here) left.add(there);
  }
  finished.add(file);
}

walk(entry, 0);
if (verbose) console.log(lines.join('\n'));
const folders = new Set([...visited].map(folderOf));
console.log(`${relative(process.cwd(), entry)}${followTypes ? ' (type imports followed too)' : ''}`);
console.log(`files visited: ${visited.size} in ${folders.size} folders (${[...folders].sort().join(', ')})`);
console.log(`returns into a folder already left: ${returns}, of which ${returnsForNewFiles} to a file not visited yet`);
console.log(`imports of a file already left: ${fileReturns}`);
const pairs = [...byPair].sort(([a, m], [b, n]) => n - m || a.localeCompare(b));
console.log(`returns by folders: ${pairs.map(([pair, count]) => `${pair} ${count}`).join(', ')}`);
console.log(`local modules the entry imports: ${localImports(entry, true).length} (${localImports(entry, false).length} with code)`);
