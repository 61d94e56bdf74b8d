// Runs one of our controllers from its bundle (controllers/<name>/dist/main.mjs, what `npm run build` ships) as a local
// process authenticated as its own ServiceAccount, so the RBAC in deploy/<name>/ is exactly what it can do. Tests that
// need the controller's environment or its lifecycle in their own hands use this; controller-pods.ts runs the shipped
// Deployments instead. The Node runtime settings of the Deployment (heap limits) apply here too. Output goes to
// <bed>/logs/controller-<name>-<n>.log.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BedInfo } from '../bed/index.js';
import { serviceAccountKubeconfig } from '../bed/index.js';
import { freePort } from '../bed/ports.js';
import { sampleValues } from './metric-samples.js';
import { LOCAL_POLL_INTERVAL_MS, waitFor } from '../wait-for.js';
import { podDirEnvName } from '../agent/pid-registry.js';
import { deploymentRuntimeEnv, imageNodeArgs, installControllerRbac, managerDeploymentEnv, repoRoot } from './manifests.js';

export const CONTROLLER_NAMESPACE = 'zk-oam-system';

export interface ControllerProcessOptions {
  readonly bed: BedInfo;
  /** The directory under controllers/ and deploy/, e.g. `workload`. */
  readonly name: string;
  /** Defaults to `zk-oam-<name>`, as deploy/<name>/ names it. */
  readonly serviceAccount?: string;
  /** pino level; `warn` keeps test output and logs small. */
  readonly logLevel?: string;
  /** Extra environment, e.g. LEADER_ELECTION=false or a shorter observer period. */
  readonly env?: Readonly<Record<string, string>>;
  /** `bundle` (the default) runs what ships; `source` runs src/main.ts through tsx, as `npm run dev:<name>` does. */
  readonly from?: 'bundle' | 'source';
  /** Another build of the bundle to run (a copy of its dist/), so that a benchmark can run two builds side by side. */
  readonly distDir?: string;
  /** Node's own arguments before the program (V8 flags NODE_OPTIONS refuses, such as --max-opt): the images' by default. */
  readonly nodeArgs?: readonly string[];
}

export interface ControllerProcess {
  /** `system:serviceaccount:<ns>:<sa>`: the user the apiserver's audit log names for its requests. */
  readonly user: string;
  readonly metricsPort: number;
  readonly logFile: string;
  /** Whether the process is running now. */
  running(): boolean;
  /** The process id of the current run. */
  pid(): number | undefined;
  /** SIGTERM, then waits for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<number | null>;
  /** Stops it (SIGTERM) and starts it again with the same configuration. */
  restart(): Promise<void>;
}

async function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

/** What a controller process is started with: its ServiceAccount's kubeconfig, a free metrics port, its log file. */
export interface ControllerLaunch {
  readonly serviceAccount: string;
  readonly metricsPort: number;
  readonly logFile: string;
  readonly command: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

/** Where a bed's local controller processes keep their kubeconfigs; their pod marker points into it. */
export function controllerProcessesDir(bed: Pick<BedInfo, 'dir'>): string {
  return join(bed.dir, 'controllers');
}

/**
 * Installs deploy/<name>/ RBAC and makes the ServiceAccount's kubeconfig; the environment carries the bed's pod marker,
 * so `bed.stop()` (and `cluster:down`) reaps the process even when nobody waits for it.
 */
export async function prepareControllerLaunch(options: ControllerProcessOptions): Promise<ControllerLaunch> {
  const { bed, name } = options;
  const serviceAccount = options.serviceAccount ?? `zk-oam-${name}`;
  await installControllerRbac(bed, name);
  const configDir = controllerProcessesDir(bed);
  const logDir = join(bed.dir, 'logs');
  await mkdir(configDir, { recursive: true });
  await mkdir(logDir, { recursive: true });
  const kubeconfig = await serviceAccountKubeconfig(bed.kubeconfig, CONTROLLER_NAMESPACE, serviceAccount, join(configDir, `${name}.kubeconfig`));
  const metricsPort = await freePort();
  const nodeArgs = options.nodeArgs ?? (await imageNodeArgs());
  return {
    serviceAccount,
    metricsPort,
    logFile: join(logDir, `controller-${name}-${String(metricsPort)}.log`),
    command:
      options.from === 'source'
        ? [process.execPath, ...nodeArgs, '--import', 'tsx', join(repoRoot, 'controllers', name, 'src/main.ts')]
        : [process.execPath, ...nodeArgs, join(options.distDir ?? join(repoRoot, 'controllers', name, 'dist'), 'main.mjs')],
    env: {
      ...process.env,
      ...(await deploymentRuntimeEnv(name)),
      KUBECONFIG: kubeconfig,
      NATS_URL: bed.nats.url,
      NATS_USER: bed.nats.user,
      NATS_PASSWORD: bed.nats.password,
      METRICS_PORT: String(metricsPort),
      HEALTH_HOST: '127.0.0.1',
      LEADER_ELECTION_NAMESPACE: CONTROLLER_NAMESPACE,
      LOG_LEVEL: options.logLevel ?? 'info',
      [podDirEnvName]: join(configDir, name),
      // The manager runs the controllers deploy/manager names, each acting as its own ServiceAccount; its tokens in a
      // directory of this process alone.
      ...(name === 'manager'
        ? {
            ...(await managerDeploymentEnv()),
            CONTROLLER_SERVICE_ACCOUNT_NAMESPACE: CONTROLLER_NAMESPACE,
            CONTROLLER_TOKEN_DIR: join(configDir, `manager-${String(metricsPort)}-tokens`),
          }
        : {}),
      ...options.env,
    },
  };
}

/**
 * The test files of this worker that have ended (file-cleanup.ts counts them). A test that timed out goes on running
 * after its file ended; a controller it restarts then would act in the next file's namespaces, so it is refused.
 */
let filesEnded = 0;

export function countEndedFile(): void {
  filesEnded += 1;
}

/** Installs deploy/<name>/ RBAC, makes the ServiceAccount's kubeconfig and starts the controller. */
export async function startControllerProcess(options: ControllerProcessOptions): Promise<ControllerProcess> {
  const startedIn = filesEnded;
  const { command, env, metricsPort, logFile, serviceAccount } = await prepareControllerLaunch(options);
  const log = createWriteStream(logFile, { flags: 'a' });
  const launch = (): ChildProcess => {
    if (filesEnded !== startedIn) throw new Error(`the ${options.name} controller's test file has ended: it is not started again`);
    const [executable = process.execPath, ...args] = command;
    const child = spawn(executable, args, {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    return child;
  };
  let child = launch();
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  const signal = async (name: NodeJS.Signals): Promise<number | null> => {
    if (running()) child.kill(name);
    return exitOf(child);
  };
  return {
    user: `system:serviceaccount:${CONTROLLER_NAMESPACE}:${serviceAccount}`,
    metricsPort,
    logFile,
    running,
    pid: () => child.pid,
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
    restart: async () => {
      await signal('SIGTERM');
      child = launch();
    },
  };
}

/** The lines of a controller's log that say what went wrong: pino errors and above, and anything not JSON (Node's own reports). */
export function troubleLines(log: string, limit = 20): string[] {
  const trouble = log.split('\n').filter((line) => {
    if (line.trim() === '') return false;
    try {
      const level: unknown = (JSON.parse(line) as { level?: unknown }).level;
      return typeof level !== 'number' || level >= 50;
    } catch {
      return true;
    }
  });
  return trouble.slice(-limit);
}

/**
 * Stops a process of ours (SIGTERM) and throws unless it exits with 0: a controller finished its reconciles and released
 * its lease. The error carries its log's trouble lines, since the log goes with the bed.
 */
export async function stopCleanly(ours: Pick<ControllerProcess, 'logFile' | 'stop'> | undefined): Promise<void> {
  if (ours === undefined) throw new Error('the process was never started');
  const code = await ours.stop();
  if (code === 0) return;
  const lines = troubleLines(await readFile(ours.logFile, 'utf8').catch(() => ''));
  throw new Error(`${ours.logFile}: the process exited with ${String(code)}, not 0 (SIGTERM, or earlier by itself); its log says:\n${lines.join('\n') || '(nothing at error level)'}`);
}

/** The running process's command line, as the kernel reports it (/proc/<pid>/cmdline). */
export async function commandLineOf(controller: ControllerProcess): Promise<string[]> {
  return (await readFile(`/proc/${String(controller.pid())}/cmdline`, 'utf8')).split('\0').filter((word) => word !== '');
}

/** Polls the controller's /readyz until its caches are synced. */
export async function waitControllerReady(controller: ControllerProcess, timeoutMs = 60_000): Promise<void> {
  await waitFor(
    `the controller ready; see ${controller.logFile}`,
    async () => (await fetch(`http://127.0.0.1:${String(controller.metricsPort)}/readyz`)).status,
    (status) => status === 200,
    timeoutMs,
    LOCAL_POLL_INTERVAL_MS,
    () => (controller.running() ? undefined : new Error(`the controller exited before it was ready; see ${controller.logFile}`)),
  );
}

/** The sum of every series of a counter on the controller's /metrics, e.g. `controller_runtime_reconcile_total`. */
export async function counterOf(controller: ControllerProcess, metric: string): Promise<number> {
  const metrics = await (await fetch(`http://127.0.0.1:${String(controller.metricsPort)}/metrics`)).text();
  return sampleValues(metrics, metric).reduce((sum, value) => sum + value, 0);
}

/**
 * Reconciles the process has run to the end since it started, whatever their result: the count of its reconcile
 * duration histogram (a key of a namespace being deleted is put back without running, and is not counted).
 */
export function reconcilesRun(controller: ControllerProcess): Promise<number> {
  return counterOf(controller, 'controller_runtime_reconcile_time_seconds_count');
}
