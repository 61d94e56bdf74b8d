// `npm start`, after `cluster:up`: runs this repository's controllers on the bed, each in the background as its own
// ServiceAccount with the RBAC of deploy/<controller>/ (`cluster:down` stops them with the bed), applies the samples of
// deploy/samples/, shows the ensemble coming up until it is Ready, then says what to try next.
import { spawn } from 'node:child_process';
import { existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { ZOOKEEPER_PORTS, type ZookeeperWorkload } from '@zk-oam/apis';
import { fourLetterWord, parseSrvr } from '@zk-oam/zookeeper';
import { z } from 'zod';
import { waitUntil, type BedInfo } from './bed/index.js';
import { clusterFiles, readyInfo } from './cluster-files.js';
import {
  applyManifests,
  installCrds,
  isReady,
  prepareControllerLaunch,
  readManifests,
  repoRoot,
  WorkloadClient,
} from './controllers/index.js';

const namespace = 'zk-demo';
const sampleSchema = z.looseObject({ kind: z.string(), metadata: z.looseObject({ name: z.string() }) });
const readyTimeoutMs = 8 * 60_000;
const CONTROLLERS = ['workload', 'scale', 'rolling', 'appconfig'] as const;
type ControllerName = (typeof CONTROLLERS)[number];
/** What each controller turns into an ensemble, in the order the samples are applied. */
const SAMPLE_KINDS: Record<ControllerName, readonly string[]> = {
  workload: ['ZookeeperWorkload'],
  scale: ['ZookeeperScale'],
  rolling: ['ZookeeperRolling'],
  appconfig: ['Component', 'ApplicationConfiguration'],
};

function say(line: string): void {
  process.stdout.write(`[start] ${line}\n`);
}

/** Starts one controller detached, its output in its own log file; returns its metrics port. */
async function startInBackground(bed: BedInfo, name: ControllerName): Promise<{ port: number; logFile: string }> {
  const launch = await prepareControllerLaunch({ bed, name, logLevel: 'info' });
  const logFd = openSync(launch.logFile, 'a');
  const [executable = process.execPath, ...args] = launch.command;
  const child = spawn(executable, args, { cwd: repoRoot, env: launch.env, detached: true, stdio: ['ignore', logFd, logFd] });
  child.unref();
  return { port: launch.metricsPort, logFile: launch.logFile };
}

async function waitReadyz(name: string, port: number, logFile: string): Promise<void> {
  const ready = (): Promise<boolean> => fetch(`http://127.0.0.1:${String(port)}/readyz`).then((response) => response.ok, () => false);
  await waitUntil(`the ${name} controller ready (see ${logFile})`, ready, { timeoutMs: 120_000, intervalMs: 500 });
}

/** The samples the running controllers act on: with the appconfig controller, the ApplicationConfiguration; else the CRs. */
async function samples(running: readonly ControllerName[]): Promise<Record<string, unknown>[]> {
  const directory = join(repoRoot, 'deploy/samples');
  if (!existsSync(directory)) return [];
  const objects = await readManifests(directory);
  const kinds = running.includes('appconfig') ? SAMPLE_KINDS.appconfig : running.flatMap((name) => SAMPLE_KINDS[name]);
  return kinds.flatMap((kind) =>
    objects
      .filter((object) => object['kind'] === kind)
      .map((object) => {
        const sample = sampleSchema.parse(object);
        return { ...sample, metadata: { ...sample.metadata, namespace } };
      }),
  );
}

function describeWorkload(workload: ZookeeperWorkload): string {
  const status = workload.status;
  const members = (status?.members ?? []).map((member) => `${member.pod}:${member.role}${member.synced ? '' : '(syncing)'}`).join(' ');
  return `${workload.metadata.name}: phase ${status?.phase ?? 'Pending'}, ready ${String(status?.readyReplicas ?? 0)}/${String(workload.spec.replicas)}, leader ${status?.leader ?? '-'}  ${members}`;
}

async function waitForReadyEnsemble(client: WorkloadClient): Promise<ZookeeperWorkload> {
  let last = '';
  let ready: ZookeeperWorkload | undefined;
  const showProgress = async (): Promise<boolean> => {
    const workloads = await client.list(namespace);
    for (const workload of workloads) {
      const line = describeWorkload(workload);
      if (line !== last) say(line);
      last = line;
    }
    ready = workloads.find(isReady);
    return ready !== undefined;
  };
  await waitUntil('an ensemble Ready (see the controller and agent logs)', showProgress, { timeoutMs: readyTimeoutMs, intervalMs: 2_000 });
  if (ready === undefined) throw new Error('no ensemble Ready');
  return ready;
}

async function main(): Promise<void> {
  const bed = readyInfo();
  if (!bed) throw new Error('the bed is not up: run npm run cluster:up first');
  const started = Date.now();
  await installCrds(bed);
  const oam = join(repoRoot, 'deploy/oam');
  if (existsSync(oam)) {
    await applyManifests(bed, await readManifests(join(oam, 'crds')));
    await applyManifests(bed, await readManifests(oam));
  }
  const running = CONTROLLERS.filter((name) => existsSync(join(repoRoot, 'controllers', name, 'src/main.ts')));
  for (const name of running) {
    const { port, logFile } = await startInBackground(bed, name);
    await waitReadyz(name, port, logFile);
    say(`${name} controller running as ServiceAccount zk-oam-${name} (metrics http://127.0.0.1:${String(port)}/metrics, log ${logFile})`);
  }
  const client = new WorkloadClient(bed);
  await client.createNamespace(namespace).catch(() => undefined);
  const objects = await samples(running);
  if (objects.length === 0) throw new Error('deploy/samples/ holds nothing the running controllers act on');
  await applyManifests(bed, objects);
  say(`applied ${objects.map((object) => String(object['kind'])).join(', ')} from deploy/samples/ in namespace ${namespace}`);
  const workload = await waitForReadyEnsemble(client);
  say(`ensemble ${workload.metadata.name} Ready ${String(Math.round((Date.now() - started) / 1000))} s after start; each member over its pod IP:`);
  for (const member of workload.status?.members ?? []) {
    const pod = await client.core.readNamespacedPod({ namespace, name: member.pod });
    const ip = pod.status?.podIP ?? '';
    const srvr = parseSrvr(await fourLetterWord(ip, ZOOKEEPER_PORTS.client, 'srvr', { timeoutMs: 3_000 }));
    say(`  ${member.pod}  ${ip}  node ${pod.spec?.nodeName ?? ''}  mode ${srvr.mode}  zxid 0x${srvr.zxid.value.toString(16)}`);
  }
  process.stdout.write(
    [
      '',
      'Try next:',
      `  export KUBECONFIG=${clusterFiles.kubeconfig} PATH=${bed.binDir}:$PATH`,
      `  kubectl -n ${namespace} get zookeeper                       # workloads and traits`,
      `  kubectl -n ${namespace} describe zkw ${workload.metadata.name}                    # conditions, members, Events`,
      `  kubectl -n ${namespace} get pods -o wide`,
      ...(running.includes('scale') ? [`  kubectl -n ${namespace} scale zks --all --replicas=5   # one member at a time, never losing quorum`] : []),
      `  npm run cluster:down                                        # stops the bed and the controllers`,
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`[start] failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
