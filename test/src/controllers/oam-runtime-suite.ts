// oam-kubernetes-runtime v0.3.3's own e2e suite and the controllers its specs need besides an ApplicationConfiguration
// runtime, built by test/oam-e2e/build.sh (cached: instant after the first build), run against the bed.
import { join } from 'node:path';
import type { BedInfo } from '../bed/index.js';
import { runCommand, type CommandResult } from './command.js';
import { builtBy } from './go-built.js';
import { startLoggedProcess, type LoggedProcess } from './logged-process.js';

/** The directory build.sh fills: e2e.test, oam-runtime-controllers, e2e-test/testdata, crds/. */
export function oamRuntimeSuiteDir(): string {
  return builtBy('oam-e2e');
}

/** The module's ContainerizedWorkload, ManualScalerTrait and HealthScope controllers, as the bed's admin. */
export function startRuntimeControllers(bed: Pick<BedInfo, 'dir' | 'kubeconfig'>, suiteDir: string): Promise<LoggedProcess> {
  return startLoggedProcess(bed, 'oam-runtime-controllers', join(suiteDir, 'oam-runtime-controllers'));
}

/** Runs the specs whose text matches `focus` (a Go regular expression); the output is ginkgo's, verbose. */
export function runSuite(bed: Pick<BedInfo, 'kubeconfig'>, suiteDir: string, flags: readonly string[]): Promise<CommandResult> {
  return runCommand(join(suiteDir, 'e2e.test'), ['-ginkgo.noColor', '-ginkgo.v', '-test.timeout=15m', ...flags], '', 16 * 60_000, {
    cwd: join(suiteDir, 'e2e-test'),
    env: { KUBECONFIG: bed.kubeconfig },
  });
}
