// Finds the control-plane binaries: KUBEBUILDER_ASSETS / TEST_ASSET_* when set, otherwise the cached build
// made by test/controlplane/build.sh (which builds them on first use and streams its progress on stderr). Running a
// build script and checking what it built are shared with the pod network's binaries (../network/binaries.ts).
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { dirname, join } from 'node:path';
import { BedBinariesError } from './errors.js';
import { repoRoot } from './paths.js';

export interface Binaries {
  etcd: string;
  kubeApiserver: string;
  kubeControllerManager: string;
  kubeScheduler: string;
  kubectl: string;
  /** The directory holding kubectl: the one to put on PATH. */
  binDir: string;
}

type BinaryKey = Exclude<keyof Binaries, 'binDir'>;

const binaryFiles: Record<BinaryKey, { file: string; override: string }> = {
  etcd: { file: 'etcd', override: 'TEST_ASSET_ETCD' },
  kubeApiserver: { file: 'kube-apiserver', override: 'TEST_ASSET_KUBE_APISERVER' },
  kubeControllerManager: { file: 'kube-controller-manager', override: 'TEST_ASSET_KUBE_CONTROLLER_MANAGER' },
  kubeScheduler: { file: 'kube-scheduler', override: 'TEST_ASSET_KUBE_SCHEDULER' },
  kubectl: { file: 'kubectl', override: 'TEST_ASSET_KUBECTL' },
};

/** The environment variables that choose binaries; callers pass process.env (library code never reads it). */
export type BinaryEnvironment = Partial<Record<string, string | undefined>>;

/**
 * Resolves every binary. Single TEST_ASSET_* variables override one binary; KUBEBUILDER_ASSETS names a
 * directory for the rest; without it the build script's cache is used (building it when missing).
 */
export async function resolveBinaries(env: BinaryEnvironment = {}): Promise<Binaries> {
  const assets = env['KUBEBUILDER_ASSETS'];
  const needsBuild = !assets && Object.values(binaryFiles).some(({ override }) => !env[override]);
  const baseDir = assets ?? (needsBuild ? await runBuildScript('test/controlplane/build.sh') : '');
  const pick = (key: BinaryKey): string => {
    const { file, override } = binaryFiles[key];
    const path = env[override] ?? join(baseDir, file);
    assertExecutable(path, `set ${override} or KUBEBUILDER_ASSETS`);
    return path;
  };
  const kubectl = pick('kubectl');
  return {
    etcd: pick('etcd'),
    kubeApiserver: pick('kubeApiserver'),
    kubeControllerManager: pick('kubeControllerManager'),
    kubeScheduler: pick('kubeScheduler'),
    kubectl,
    binDir: dirname(kubectl),
  };
}

/** Throws a BedBinariesError unless `path` is an executable file; `remedy` says what to do about it. */
export function assertExecutable(path: string, remedy: string): void {
  try {
    accessSync(path, constants.X_OK);
  } catch (error) {
    throw new BedBinariesError(`${path} is not an executable file (${remedy})`, { cause: error });
  }
}

/**
 * Runs one of the repository's build scripts (`script`, from the repository's root: test/controlplane/build.sh, say),
 * letting its progress through on stderr; its last stdout line is the directory it built into, or found cached.
 */
export function runBuildScript(script: string): Promise<string> {
  const path = join(repoRoot(), script);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [path], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.on('error', (error) => reject(new BedBinariesError(`could not run ${path}`, { cause: error })));
    child.on('close', (code) => {
      const dir = stdout.trim().split('\n').at(-1)?.trim();
      if (code === 0 && dir) resolve(dir);
      else reject(new BedBinariesError(`${path} failed with exit code ${String(code)}; see its output above`));
    });
  });
}
