// Prints the plain closing line CI reads ("N passed, N failed") from vitest's JSON report.
// A failed typecheck or lint, or a run that crashed before reporting, counts as one failure.
import { readFileSync } from 'node:fs';

const [file, status, seconds] = process.argv.slice(2);
let passed = 0;
let failed = 0;
try {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed = report.numPassedTests;
  failed = report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0);
} catch {
  failed = 1;
}
if (status !== '0' && failed === 0) failed = 1;
console.log(`suite time: ${seconds}s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
