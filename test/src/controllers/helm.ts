// Runs Helm, built from its pinned Go module by test/helm/build.sh (cached: instant after the first build), on the
// chart in charts/zk-oam. A non-zero exit is an error carrying what Helm said.
import { join } from 'node:path';
import type { BedInfo } from '../bed/index.js';
import { runCommand } from './command.js';
import { builtBy } from './go-built.js';
import { repoRoot } from './manifests.js';

export const CHART_DIR = join(repoRoot, 'charts', 'zk-oam');
/** `helm template` has no cluster to ask; the chart's kubeVersion is checked against this, the bed's version. */
export const BED_KUBE_VERSION = '1.36.3';

export class HelmError extends Error {
  override readonly name = 'HelmError';
  constructor(args: readonly string[], code: number | null, output: string) {
    super(`helm ${args.join(' ')} exited with ${String(code)}: ${output.trim()}`);
  }
}

let binary: string | undefined;

function helmBinary(): string {
  binary ??= builtBy('helm');
  return binary;
}

/** Helm with `args`, against the bed when one is given; resolves with stdout. */
export async function helm(args: readonly string[], bed?: Pick<BedInfo, 'kubeconfig'>): Promise<string> {
  const withCluster = bed === undefined ? args : ['--kubeconfig', bed.kubeconfig, ...args];
  const { code, stdout, stderr } = await runCommand(helmBinary(), withCluster, '', 300_000);
  if (code !== 0) throw new HelmError(args, code, `${stdout}\n${stderr}`);
  return stdout;
}
