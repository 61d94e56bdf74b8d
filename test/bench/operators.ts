// The operators the benchmark compares, run on one bed: our workload controller from its bundle, our whole install
// (the four controllers, separate or combined in the manager, from their bundles), and the pravega ZooKeeper operator
// (Go, built from its pinned module by test/peer/build.sh). Each gets the same number
// of equivalent ensembles (3 members, 64Mi volumes) whose pods can never schedule (a nodeSelector no node matches), so
// what is measured is the controllers alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CustomObjectsApi, RbacAuthorizationV1Api, CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { serviceAccountKubeconfig, type BedInfo } from '../src/bed/index.js';
import { watchFirstSeen, type FirstSeen } from './first-seen.js';
import { freePort } from '../src/bed/ports.js';
import {
  bedWorkloadSpec,
  CONTROLLER_NAMESPACE,
  deploymentRuntimeEnv,
  kubectl,
  startControllerProcess,
  waitControllerReady,
  waitFor,
  type ControllerProcess,
} from '../src/controllers/index.js';
import { deploymentRunning, installedDeployments, type ControllerInstall } from '../src/controllers/install.js';
import { sampleValues } from '../src/controllers/metric-samples.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

export const UNSCHEDULABLE = { 'zkoam.dev/no-such-node': 'true' } as const;

/** One operator as the benchmark drives and reads it. */
export interface BenchedOperator {
  readonly name: string;
  /** The user its API requests carry in the audit log: of our installs, the workload controller's, which writes for a burst. */
  readonly user: string;
  /** Its processes: one replica of each Deployment, as pravega's default install runs. */
  processes(): readonly number[];
  /** For our installs: the standbys a second replica of each Deployment adds, started only to be measured idle. */
  readonly secondReplica?: SecondReplica;
  /** Its Prometheus endpoints (one replica's), for reconcile counters and the heap. */
  readonly metricsUrls: readonly string[];
  /** Creates one ensemble of the operator's own kind. */
  create(namespace: string, name: string): Promise<void>;
  /** The kind of its ensembles, each observed once it carries a status written by the operator (watchObserved). */
  readonly kind: EnsembleKind;
  stop(): Promise<void>;
}

/**
 * The second replica of an install, its standbys. A standby keeps its informers as warm as the leader's, so one that
 * ran through a burst would share the bed's two cores with the leader measured: the benchmark starts them only after
 * the burst, when the one replica's figures are taken, and stops them before the next.
 */
export interface SecondReplica {
  /** Starts every standby and waits until each is ready; their pids. */
  start(): Promise<readonly number[]>;
  stop(): Promise<void>;
}

/** How many ensembles a burst creates at once. */
const BURST_CONCURRENCY = 16;

/** Creates `size` ensembles `zk-0000`, `zk-0001`, ... in `namespace`, BURST_CONCURRENCY at a time; when each was created. */
export async function applyBurst(operator: Pick<BenchedOperator, 'create'>, namespace: string, size: number): Promise<Map<string, number>> {
  const created = new Map<string, number>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < size) {
      const name = `zk-${String(next++).padStart(4, '0')}`;
      await operator.create(namespace, name);
      created.set(name, performance.now());
    }
  };
  await Promise.all(Array.from({ length: Math.min(BURST_CONCURRENCY, size) }, worker));
  return created;
}

function customObjects(bed: BedInfo): CustomObjectsApi {
  const kubeConfig = new PooledKubeConfig();
  kubeConfig.loadFromFile(bed.kubeconfig);
  return kubeConfig.makeApiClient(CustomObjectsApi);
}

/** The collection an operator's ensembles are created in. */
export interface EnsembleKind {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
}

/**
 * When each ensemble of `namespace` first carried a status written by its operator, from a watch of their kind: a
 * burst's end as it happens. A list every second read it up to a second late, and the CPU of that second with it
 * (about 0.2 CPU-seconds for our install in a burst of 100, 0.06 for pravega's).
 */
export function watchObserved(kubeConfig: KubeConfig, kind: EnsembleKind, namespace: string): Promise<FirstSeen> {
  return watchFirstSeen(kubeConfig, `/apis/${kind.group}/${kind.version}/namespaces/${namespace}/${kind.plural}`, (_type, object) => {
    const status = object['status'];
    return typeof status === 'object' && status !== null && Object.keys(status).length > 0;
  });
}

/**
 * Our workload controller, from its bundle, with the RBAC of deploy/workload. With `cpuProfileDir`, Node's CPU profile
 * of its whole run (`--cpu-prof`) is written there when it stops; `nodeArgs` replace the images' node arguments.
 */
export async function startOurs(bed: BedInfo, options: { cpuProfileDir?: string; nodeArgs?: readonly string[] } = {}): Promise<BenchedOperator> {
  const controller: ControllerProcess = await startControllerProcess({
    bed,
    name: 'workload',
    logLevel: 'warn',
    env: await profilingEnv('workload', options.cpuProfileDir),
    ...(options.nodeArgs === undefined ? {} : { nodeArgs: options.nodeArgs }),
  });
  await waitControllerReady(controller);
  return {
    name: 'zk-oam',
    user: controller.user,
    processes: () => pidsOf([controller]),
    metricsUrls: [metricsUrl(controller)],
    ...workloadsOf(bed),
    stop: async () => {
      await controller.stop();
    },
  };
}

/** The environment that has a Deployment's process write its CPU profile (`--cpu-prof`) into `dir` as it stops. */
async function profilingEnv(name: string, dir: string | undefined): Promise<Record<string, string>> {
  return dir === undefined ? {} : { NODE_OPTIONS: `${(await deploymentRuntimeEnv(name))['NODE_OPTIONS'] ?? ''} --cpu-prof --cpu-prof-dir=${dir}` };
}

function pidsOf(controllers: readonly ControllerProcess[]): number[] {
  return controllers.flatMap((controller) => controller.pid() ?? []);
}

function metricsUrl(controller: ControllerProcess): string {
  return `http://127.0.0.1:${String(controller.metricsPort)}/metrics`;
}

/** Creating ZookeeperWorkloads, and their kind to watch: what the benchmark asks of any of our installs. */
export function workloadsOf(bed: BedInfo): Pick<BenchedOperator, 'create' | 'kind'> {
  const objects = customObjects(bed);
  const target = { group: ZOOKEEPER_WORKLOAD.group, version: ZOOKEEPER_WORKLOAD.version, plural: ZOOKEEPER_WORKLOAD.plural };
  return {
    create: async (namespace, name) => {
      const body = {
        apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
        kind: ZOOKEEPER_WORKLOAD.kind,
        metadata: { name, namespace },
        spec: bedWorkloadSpec({ replicas: 3, placement: { nodeSelector: { ...UNSCHEDULABLE } } }),
      };
      await objects.createNamespacedCustomObject({ ...target, namespace, body });
    },
    kind: target,
  };
}

/** Whether every controller of the process leads: each of its leader_election_master_status series at 1. */
async function leadsAll(controller: ControllerProcess): Promise<boolean> {
  const values = sampleValues(await (await fetch(metricsUrl(controller))).text(), 'leader_election_master_status');
  return values.length > 0 && values.every((value) => value === 1);
}

/**
 * Our whole install as a user runs it, from the bundles with each Deployment's RBAC and Node settings: the controllers
 * in a process each (separate) or in the manager's (combined). One replica, which takes every Lease; the second's
 * standbys start when asked (`secondReplica`). With `cpuProfileDir`, each process of the first writes its CPU profile
 * there.
 */
export async function startInstall(bed: BedInfo, install: ControllerInstall, options: { cpuProfileDir?: string } = {}): Promise<BenchedOperator> {
  const names = installedDeployments(install);
  const start = async (replica: number): Promise<ControllerProcess[]> => {
    const envOf = async (name: string) => ({ POD_NAME: `bench-${name}-${String(replica)}`, ...(replica === 1 ? await profilingEnv(name, options.cpuProfileDir) : {}) });
    const started = await Promise.all(names.map(async (name) => startControllerProcess({ bed, name, logLevel: 'warn', env: await envOf(name) })));
    for (const controller of started) await waitControllerReady(controller);
    return started;
  };
  const leaders = await start(1);
  await waitFor(`the first replica of the ${install} install leading`, async () => (await Promise.all(leaders.map(leadsAll))).every(Boolean), (all) => all, 60_000, 500);
  let standbys: ControllerProcess[] = [];
  const stopStandbys = async (): Promise<void> => {
    await Promise.all(standbys.map((controller) => controller.stop()));
    standbys = [];
  };
  const workload = leaders[names.indexOf(deploymentRunning('workload', install))];
  return {
    name: `zk-oam ${install}`,
    // The workload controller's own, in the manager too: each controller there acts as its own ServiceAccount.
    user: `system:serviceaccount:${CONTROLLER_NAMESPACE}:zk-oam-workload`,
    processes: () => pidsOf(leaders),
    secondReplica: {
      start: async () => {
        standbys = await start(2);
        return pidsOf(standbys);
      },
      stop: stopStandbys,
    },
    // The workload controller's first: the Lease renewals the benchmark follows are its.
    metricsUrls: [...(workload === undefined ? [] : [workload]), ...leaders.filter((controller) => controller !== workload)].map(metricsUrl),
    ...workloadsOf(bed),
    stop: async () => {
      await stopStandbys();
      await Promise.all(leaders.map((controller) => controller.stop()));
    },
  };
}

export interface PeerBuild {
  readonly binary: string;
  readonly crd: string;
  readonly version: string;
}

const PEER = { group: 'zookeeper.pravega.io', version: 'v1beta1', plural: 'zookeeperclusters', kind: 'ZookeeperCluster' } as const;
const PEER_NAMESPACE = 'zk-peer';
const PEER_ACCOUNT = 'pravega-zookeeper-operator';
const PEER_POD = 'pravega-zookeeper-operator-0';

/** Where every pod finds its namespace; the pravega operator reads it even out of cluster (main.go, operator-lib). */
const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * The pravega operator out of cluster, with a kubeconfig of its own: a ServiceAccount bound to cluster-admin (its
 * shipped RBAC is cluster-wide too), watching every namespace (WATCH_NAMESPACE empty). It insists on reading its
 * namespace from the pod's service-account directory and on owning its leader-for-life lock through its own Pod, so
 * it runs in a private mount namespace where that directory holds `namespace`, and a Pod object that never schedules
 * stands in for its pod.
 */
export async function startPeer(bed: BedInfo, build: PeerBuild, logFile: string): Promise<BenchedOperator> {
  await kubectl(bed, ['apply', '--server-side', '-f', build.crd]);
  const crd = `crd/${PEER.plural}.${PEER.group}`;
  // `kubectl wait` fails outright while the CRD has no status yet, so it is asked again until it succeeds.
  await waitFor('the peer CRD Established', () => kubectl(bed, ['wait', '--for=condition=Established', '--timeout=10s', crd]), () => true, 60_000, 500);
  const kubeConfig = new PooledKubeConfig();
  kubeConfig.loadFromFile(bed.kubeconfig);
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const rbac = kubeConfig.makeApiClient(RbacAuthorizationV1Api);
  await core.createNamespace({ body: { metadata: { name: PEER_NAMESPACE } } });
  await core.createNamespacedServiceAccount({ namespace: PEER_NAMESPACE, body: { metadata: { name: PEER_ACCOUNT } } });
  await rbac.createClusterRoleBinding({
    body: {
      metadata: { name: PEER_ACCOUNT },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'ServiceAccount', name: PEER_ACCOUNT, namespace: PEER_NAMESPACE }],
    },
  });
  await core.createNamespacedPod({
    namespace: PEER_NAMESPACE,
    body: {
      metadata: { name: PEER_POD },
      spec: { nodeSelector: { ...UNSCHEDULABLE }, containers: [{ name: 'operator', image: 'pravega/zookeeper-operator:stand-in', command: ['false'] }] },
    },
  });
  const kubeconfig = await serviceAccountKubeconfig(bed.kubeconfig, PEER_NAMESPACE, PEER_ACCOUNT, join(bed.dir, 'peer.kubeconfig'));
  const namespaceDir = join(bed.dir, 'peer-serviceaccount');
  await mkdir(namespaceDir, { recursive: true });
  await writeFile(join(namespaceDir, 'namespace'), PEER_NAMESPACE);
  const metricsPort = await freePort();
  const log = createWriteStream(logFile, { flags: 'a' });
  const script = `mkdir -p ${SERVICE_ACCOUNT_DIR} && mount --bind "$0" ${SERVICE_ACCOUNT_DIR} && exec "$@"`;
  const child: ChildProcess = spawn(
    'unshare',
    ['--mount', '--propagation', 'private', 'sh', '-c', script, namespaceDir, build.binary, `--metrics-bind-address=127.0.0.1:${String(metricsPort)}`],
    { env: { ...process.env, KUBECONFIG: kubeconfig, WATCH_NAMESPACE: '', POD_NAME: PEER_POD }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const objects = customObjects(bed);
  return {
    name: `pravega ${build.version}`,
    user: `system:serviceaccount:${PEER_NAMESPACE}:${PEER_ACCOUNT}`,
    processes: () => (child.pid === undefined ? [] : [child.pid]),
    metricsUrls: [`http://127.0.0.1:${String(metricsPort)}/metrics`],
    create: async (namespace, name) => {
      const body = {
        apiVersion: `${PEER.group}/${PEER.version}`,
        kind: PEER.kind,
        metadata: { name, namespace },
        spec: {
          replicas: 3,
          pod: { nodeSelector: { ...UNSCHEDULABLE }, resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { memory: '256Mi' } } },
          persistence: { reclaimPolicy: 'Delete', spec: { storageClassName: 'bed-local', resources: { requests: { storage: '64Mi' } } } },
        },
      };
      await objects.createNamespacedCustomObject({ group: PEER.group, version: PEER.version, plural: PEER.plural, namespace, body });
    },
    kind: PEER,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    },
  };
}

/** Reads the peer build's directory (the last line build.sh prints). */
export async function peerBuild(directory: string): Promise<PeerBuild> {
  const version = (await readFile(join(directory, 'VERSION'), 'utf8')).trim();
  return { binary: join(directory, 'zookeeper-operator'), crd: join(directory, 'zookeeperclusters.yaml'), version };
}
