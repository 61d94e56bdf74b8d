// oam-kubernetes-runtime v0.3.3's own e2e suite and the controllers its specs need besides an ApplicationConfiguration
// runtime, built by test/oam-e2e/build.sh (cached: instant after the first build), run against the bed.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BedInfo } from '../bed/index.js';
import { runCommand, type CommandResult } from './command.js';
import { builtBy } from './go-built.js';

/** The directory build.sh fills: e2e.test, oam-runtime-controllers, e2e-test/testdata, crds/. */
export function oamRuntimeSuiteDir(): string {
  return builtBy('oam-e2e');
}

export interface RuntimeControllers {
  readonly logFile: string;
  stop(): Promise<number | null>;
}

/** The module's ContainerizedWorkload, ManualScalerTrait and HealthScope controllers, as the bed's admin. */
export async function startRuntimeControllers(bed: Pick<BedInfo, 'dir' | 'kubeconfig'>, suiteDir: string): Promise<RuntimeControllers> {
  const logDir = join(bed.dir, 'logs');
  await mkdir(logDir, { recursive: true });
  const logFile = join(logDir, 'oam-runtime-controllers.log');
  const log = createWriteStream(logFile, { flags: 'a' });
  const child: ChildProcess = spawn(join(suiteDir, 'oam-runtime-controllers'), [], { env: { ...process.env, KUBECONFIG: bed.kubeconfig }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return {
    logFile,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const [code] = (child.exitCode === null && child.signalCode === null ? await once(child, 'exit') : [child.exitCode]) as [number | null];
      return code;
    },
  };
}

/** Runs the specs whose text matches `focus` (a Go regular expression); the output is ginkgo's, verbose. */
export function runSuite(bed: Pick<BedInfo, 'kubeconfig'>, suiteDir: string, flags: readonly string[]): Promise<CommandResult> {
  return runCommand(join(suiteDir, 'e2e.test'), ['-ginkgo.noColor', '-ginkgo.v', '-test.timeout=15m', ...flags], '', 16 * 60_000, {
    cwd: join(suiteDir, 'e2e-test'),
    env: { KUBECONFIG: bed.kubeconfig },
  });
}
