// Prints where the suite's time went (the slowest test files, with seconds) and then the plain closing line CI reads
// ("N passed, N failed") from vitest's JSON report. A failed typecheck or lint, or a run that crashed before reporting,
// counts as one failure.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const SLOWEST_SHOWN = 15;
const [file, status, seconds] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let files = [];
try {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed = report.numPassedTests;
  failed = report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0);
  files = report.testResults.map((result) => ({
    name: relative(process.cwd(), result.name),
    seconds: (result.endTime - result.startTime) / 1000,
    tests: result.assertionResults.length,
    startTime: result.startTime,
    endTime: result.endTime,
  }));
} catch {
  failed = 1;
}
if (status !== '0' && failed === 0) failed = 1;

const bed = files.filter((entry) => entry.name.startsWith('test/e2e/'));
const sum = (entries) => entries.reduce((total, entry) => total + entry.seconds, 0);
console.log(`slowest test files (of ${String(files.length)}; bed files ${sum(bed).toFixed(0)} s, unit files ${sum(files.filter((entry) => !bed.includes(entry))).toFixed(0)} s summed):`);
for (const entry of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST_SHOWN)) {
  console.log(`  ${entry.seconds.toFixed(1).padStart(7)} s  ${String(entry.tests).padStart(3)} tests  ${entry.name}`);
}
// When each group of files ran, from the first file's start: a group ending well after the others has a long tail.
const first = Math.min(...files.map((entry) => entry.startTime));
const groups = { bed, images: files.filter((entry) => entry.name.startsWith('test/images/')), unit: files.filter((entry) => !entry.name.startsWith('test/e2e/') && !entry.name.startsWith('test/images/')) };
const spans = Object.entries(groups)
  .filter(([, entries]) => entries.length > 0)
  .map(([name, entries]) => `${name} ${((Math.min(...entries.map((entry) => entry.startTime)) - first) / 1000).toFixed(0)}-${((Math.max(...entries.map((entry) => entry.endTime)) - first) / 1000).toFixed(0)} s`);
if (spans.length > 0) console.log(`test files ran (seconds from the first file's start): ${spans.join(', ')}`);
console.log(`suite time: ${seconds}s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
